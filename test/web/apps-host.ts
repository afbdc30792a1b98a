/**
 * A test host for Cairn's MCP Apps views, as a chat client runs them: a real MCP client (the v2 SDK
 * over stdio, declaring the UI extension) talks to `cairn mcp`; Chromium shows the view the tool
 * names in a sandboxed iframe, connected by the SDK's host bridge (apps-host-page.ts).
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build } from 'esbuild';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { BIN, openBrowser, type Browser } from './board-harness.js';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';

export interface Host {
  client: Client;
  browser: Browser;
  /** Tool calls the views made, by name. */
  calls: string[];
  /** Calls `tool` as the model would, then shows its view with the call's input and result; answers the view's frame. */
  show(tool: string, args: Record<string, unknown>, opts?: { theme?: 'light' | 'dark'; width?: number; height?: number }): Promise<Frame>;
  close(): Promise<void>;
}

let pageScript: Promise<string> | undefined;
const hostScript = () =>
  (pageScript ??= build({ entryPoints: [join(import.meta.dirname, 'apps-host-page.ts')], bundle: true, write: false, format: 'iife', target: 'es2022', logLevel: 'warning' }).then(
    (r) => r.outputFiles[0]!.text,
  ));

export async function openHost(db: string, opts: { args?: string[]; actor?: string } = {}): Promise<Host> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CAIRN_ACTOR: opts.actor ?? 'agent:host' };
  const client = new Client({ name: 'cairn-test-host', version: '1.0.0' }, { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } as never });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--db', db, ...(opts.args ?? [])], env, stderr: 'pipe' }));
  const tools = (await client.listTools()).tools;
  const browser = await openBrowser({ width: 1280, height: 900 });
  const calls: string[] = [];
  await browser.page.exposeFunction('cairnHostCall', async (params: { name: string; arguments?: Record<string, unknown> }) => {
    calls.push(params.name);
    return client.callTool(params);
  });
  await browser.page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await browser.page.addScriptTag({ content: await hostScript() });
  return {
    client,
    browser,
    calls,
    async show(tool, args, o = {}) {
      const listed = tools.find((t) => t.name === tool);
      const uri = (listed?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
      if (!uri) throw new Error(`${tool} names no view (_meta.ui.resourceUri)`);
      const result = await client.callTool({ name: tool, arguments: args });
      const read = await client.readResource({ uri });
      const content = read.contents[0] as { mimeType?: string; text?: string };
      if (content.mimeType !== MIME || !content.text) throw new Error(`${uri} is not an MCP Apps page (${content.mimeType})`);
      await browser.page.evaluate((m) => (globalThis as unknown as { mountView(m: unknown): Promise<void> }).mountView(m), {
        html: content.text,
        args,
        result: result as Record<string, unknown>,
        theme: o.theme ?? 'light',
        width: o.width ?? 1240,
        height: o.height ?? 820,
      });
      const frame = browser.page.frames().find((f) => f !== browser.page.mainFrame());
      if (!frame) throw new Error('the view has no frame');
      return frame;
    },
    async close() {
      await browser.close();
      await client.close();
    },
  };
}
