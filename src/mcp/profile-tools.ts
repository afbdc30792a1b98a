/**
 * Serves a profile (src/profiles) on an MCP server: its tools and resources, in one loop each, with
 * the seed's schemas advertised as they are and every call run by runProfileTool (input parsing,
 * the native ops, the profile's own error format).
 */
import { ProtocolError, ProtocolErrorCode, ResourceTemplate, type CallToolResult, type McpServer } from '@modelcontextprotocol/server';
import { toCairnError } from '../core/errors.js';
import { errorText } from '../ops/error-text.js';
import type { OpContext } from '../ops/index.js';
import type { Profile, ToolOutput } from '../profiles/profile.js';
import { makeCall, runProfileTool } from '../profiles/serve.js';
import type { ListedTool } from './tool-list.js';
import { advertiseOnly } from './tools.js';

export interface ProfileHooks {
  context(): Promise<OpContext>;
  env: Readonly<Record<string, string | undefined>>;
  /** Runs a call of `tool` (waited for at shutdown, counted for /metrics). */
  track<T>(tool: string, work: () => Promise<T>): Promise<T>;
  onInternal(err: unknown): void;
}

const toResult = (out: ToolOutput): CallToolResult => ({
  content: out.content.map((text) => ({ type: 'text' as const, text })),
  ...(out.structured && !out.isError ? { structuredContent: out.structured } : {}),
  ...(out.isError ? { isError: true } : {}),
  // Not structuredContent: a v1 client checks that against the tool's output schema even on errors.
  ...(out.error ? { _meta: { 'cairn/error': { code: out.error.code, suggestions: out.error.suggestions } } } : {}),
});

/**
 * Registers every tool of the profile; answers what each lists. A tool of a toolset not served
 * stays callable and answers FORBIDDEN naming the toolset, in the profile's error format, as native
 * tools do (tool-list.ts lists only the served ones).
 */
export function registerProfileTools(server: McpServer, profile: Profile, toolsets: readonly string[], hooks: ProfileHooks): ListedTool[] {
  const sources = { context: hooks.context, env: hooks.env, onInternal: hooks.onInternal };
  return profile.tools.map((tool) => {
    const config = {
      title: tool.title,
      description: tool.description,
      inputSchema: advertiseOnly(tool.input),
      ...(tool.output ? { outputSchema: advertiseOnly(tool.output) } : {}),
      annotations: {
        title: tool.title,
        readOnlyHint: tool.readOnly,
        ...(tool.readOnly ? {} : { destructiveHint: tool.destructive === true }),
        idempotentHint: tool.idempotent === true,
        openWorldHint: false,
      },
    };
    server.registerTool(tool.name, config, (async (raw: unknown) => hooks.track(tool.name, async () => toResult(await runProfileTool(profile, tool, sources, raw, toolsets)))) as never);
    return { name: tool.name, ...config };
  });
}

export function registerProfileResources(server: McpServer, profile: Profile, hooks: ProfileHooks): void {
  const sources = { context: hooks.context, env: hooks.env };
  for (const r of profile.resources ?? []) {
    const read = async (uri: URL, vars: Record<string, string | string[]>) => {
      try {
        const flat = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : v]));
        const body = await r.read(await makeCall(profile, sources), flat, uri.href);
        return { contents: [{ uri: uri.href, mimeType: body.mimeType, text: body.text }] };
      } catch (err) {
        const e = toCairnError(err);
        if (e.code === 'INTERNAL') hooks.onInternal(e.cause ?? err);
        throw new ProtocolError(e.kind === 'internal' ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams, errorText(e));
      }
    };
    const meta = { title: r.title, description: r.description, mimeType: 'application/json' };
    if (!r.uri.includes('{')) {
      server.registerResource(r.name, r.uri, meta, (uri) => read(uri, {}));
      continue;
    }
    const list = r.list;
    const template = new ResourceTemplate(r.uri, {
      list: list ? async () => ({ resources: (await list(await makeCall(profile, sources))).map((x) => ({ ...x, mimeType: 'application/json' })) }) : undefined,
    });
    server.registerResource(r.name, template, meta, (uri, vars) => read(uri, vars as Record<string, string | string[]>));
  }
}
