/**
 * The MCP Apps extension at the protocol level, with both SDK clients: which tools name a view, the
 * views' pages, and the view-only tools that a host rendering apps may call while a plain client
 * neither sees them nor may call them. test/web/mcp-apps.test.ts runs the views themselves.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../handoff/remote-harness.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { call, connectV1, connectV2, ok, UI_EXTENSION } from './helpers.js';

let ws: TempWorkspace;
beforeAll(async () => {
  ws = tempWorkspace('cairn-mcp-apps-');
  const c = await connectV1({ db: ws.db });
  await ok(c, 'create_project', { key: 'APP', name: 'Apps' });
  await ok(c, 'create_task', { project: 'APP', title: 'One' });
  await c.close();
});
afterAll(() => ws?.cleanup());

type Listed = { name: string; _meta?: { ui?: { resourceUri?: string; visibility?: string[] }; 'ui/resourceUri'?: string } };
const VIEW_ONLY = ['archive_task', 'changes_since', 'check_paths', 'delete_task', 'list_labels', 'restore_task', 'task_history'];

describe.each([
  ['v1 (2025-11-25)', (ui: boolean, args: string[] = []) => connectV1({ db: ws.db, args }, { ui })],
  ['v2 (2026-07-28)', (ui: boolean, args: string[] = []) => connectV2({ db: ws.db, args }, { ui })],
] as const)('MCP Apps with the %s client', (_name, connect) => {
  it('points board_overview, get_task and next_tasks at their views, in both forms of the key', async () => {
    const c = await connect(false);
    try {
      const tools = (await c.listTools()).tools as Listed[];
      const meta = (n: string) => tools.find((t) => t.name === n)?._meta;
      expect(meta('board_overview')).toEqual({ ui: { resourceUri: 'ui://cairn/board.html' }, 'ui/resourceUri': 'ui://cairn/board.html' });
      expect(meta('get_task')?.ui?.resourceUri).toBe('ui://cairn/card.html');
      expect(meta('next_tasks')?.ui?.resourceUri).toBe('ui://cairn/work.html');
      expect(meta('create_task')).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  it('serves each view as one self-contained MCP Apps page that says which view it is', async () => {
    const c = await connect(false);
    try {
      const listed = (await c.listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
      expect(listed.map((r) => [r.uri, r.mimeType])).toEqual([
        ['ui://cairn/board.html', 'text/html;profile=mcp-app'],
        ['ui://cairn/card.html', 'text/html;profile=mcp-app'],
        ['ui://cairn/work.html', 'text/html;profile=mcp-app'],
      ]);
      const read = await c.readResource({ uri: 'ui://cairn/card.html' });
      const page = read.contents[0] as { mimeType: string; text: string; uri: string };
      expect(page.mimeType).toBe('text/html;profile=mcp-app');
      expect(page.text).toContain('<meta name="cairn-view" content="card">');
      // Nothing to fetch: no external script, stylesheet or module.
      expect(page.text).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
    } finally {
      await c.close();
    }
  });

  it('keeps the view-only tools from a client that does not render apps: unlisted, and refused by name', async () => {
    const c = await connect(false);
    try {
      const names = ((await c.listTools()).tools as Listed[]).map((t) => t.name);
      for (const n of VIEW_ONLY) expect(names).not.toContain(n);
      const r = await call(c, 'changes_since', { since: 0 });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^FORBIDDEN: changes_since is in the admin toolset/);
    } finally {
      await c.close();
    }
  });

  it('lets a host that renders apps call them, listed for the views only and without schemas', async () => {
    const c = await connect(true);
    try {
      const tools = (await c.listTools()).tools as Array<Listed & { inputSchema: unknown; outputSchema?: unknown }>;
      const viewOnly = tools.filter((t) => t._meta?.ui?.visibility?.join() === 'app');
      expect(viewOnly.map((t) => t.name).sort()).toEqual(VIEW_ONLY);
      for (const t of viewOnly) expect(t).toMatchObject({ inputSchema: { type: 'object' } });
      expect(viewOnly.some((t) => t.outputSchema)).toBe(false);
      const r = await ok(c, 'changes_since', { since: 0, limit: 1 });
      expect(r.data).toMatchObject({ lastSeq: expect.any(Number), headSeq: expect.any(Number), hasMore: true });
      expect(r.data.headSeq as number).toBeGreaterThan(r.data.lastSeq as number);
    } finally {
      await c.close();
    }
  });

  it('still refuses a view-only write on a read-only server', async () => {
    const c = await connect(true, ['--read-only']);
    try {
      const names = ((await c.listTools()).tools as Listed[]).map((t) => t.name);
      expect(names).toContain('changes_since');
      expect(names).not.toContain('delete_task');
      const r = await call(c, 'delete_task', { id: 'APP-1' });
      expect(r.text).toMatch(/^READ_ONLY: /);
      expect((await ok(c, 'get_task', { id: 'APP-1' })).data.task).toMatchObject({ id: 'APP-1' });
    } finally {
      await c.close();
    }
  });
});

it('names the extension as the official SDK does (src/mcp/apps.ts keeps its own copy of the names)', async () => {
  const official = await import('@modelcontextprotocol/ext-apps/server');
  const ours = await import('../../src/mcp/apps.js');
  expect([ours.EXTENSION_ID, ours.RESOURCE_MIME_TYPE, ours.RESOURCE_URI_META_KEY]).toEqual([official.EXTENSION_ID, official.RESOURCE_MIME_TYPE, official.RESOURCE_URI_META_KEY]);
  expect(official.getUiCapability({ extensions: { [ours.EXTENSION_ID]: {} } } as never)).toEqual({});
});

describe('MCP Apps over Streamable HTTP (cairn serve /mcp)', () => {
  it.each([
    ['v1 (2025-11-25, a session)', 'v1'],
    ['v2 (2026-07-28, stateless)', 'v2'],
  ] as const)('serves the views and their tools to a %s client that renders apps', async (_name, version) => {
    const served = await startServe(ws.db);
    const url = new URL(`http://127.0.0.1:${served.port}/mcp`);
    const c =
      version === 'v1'
        ? new ClientV1({ name: 'host', version: '1.0.0' }, { capabilities: UI_EXTENSION as never })
        : new ClientV2({ name: 'host', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: UI_EXTENSION as never });
    try {
      await c.connect(version === 'v1' ? new HttpV1(url) : (new HttpV2(url) as never));
      const tools = (await c.listTools()).tools as Listed[];
      expect(tools.find((t) => t.name === 'board_overview')?._meta?.ui?.resourceUri).toBe('ui://cairn/board.html');
      expect(tools.find((t) => t.name === 'changes_since')?._meta?.ui?.visibility).toEqual(['app']);
      expect((await ok(c, 'changes_since', { since: 0, limit: 1 })).data.headSeq).toEqual(expect.any(Number));
      const page = (await c.readResource({ uri: 'ui://cairn/work.html' })).contents[0] as { text: string };
      expect(page.text).toContain('<meta name="cairn-view" content="work">');
    } finally {
      await c.close();
      await served.stop();
    }
  });
});
