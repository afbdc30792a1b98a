/** Profiles over Streamable HTTP: /mcp/{profile} with both SDK clients, the same tokens, scopes and read-only rules as /mcp. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { serve, type Served } from '../http/http-harness.js';

let s: Served | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});
const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function v2(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

describe('/mcp/{profile}', () => {
  it('serves tx to the v2 client and castle to the v1 client over one server and workspace', async () => {
    s = await serve({ rateLimit: false });
    const tx = await v2(`${s.url}/mcp/tx`);
    try {
      expect((await tx.listTools()).tools.map((t) => t.name)).toContain('tx_ready');
      expect(text(await tx.callTool({ name: 'tx_add', arguments: { title: 'Over HTTP' } }))).toBe('Created: TX-1 - Over HTTP');
      expect(text(await tx.callTool({ name: 'tx_ready', arguments: {} }))).toContain('- TX-1 [0]: Over HTTP');
    } finally {
      await tx.close();
    }
    const c1 = new ClientV1({ name: 'v1', version: '1' });
    await c1.connect(new TransportV1(new URL(`${s.url}/mcp/castle`)));
    try {
      expect((await c1.listTools()).tools.map((t) => t.name)).toEqual(['castle_list_tasks', 'castle_get_task', 'castle_search_tasks', 'castle_task_summary']);
      expect(text(await c1.callTool({ name: 'castle_list_tasks', arguments: {} }))).toContain('**Over HTTP** (backlog, task)');
    } finally {
      await c1.close();
    }
  });

  it('an unknown profile is a 400 naming the valid ones', async () => {
    s = await serve({ rateLimit: false });
    const res = await fetch(`${s.url}/mcp/nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Valid profiles: native, castle, tx');
  });

  it('?projectPath= scopes castle to a project directory; a relative path, or a profile without one, is a 400 saying why', async () => {
    s = await serve({ rateLimit: false });
    const init = (path: string) =>
      fetch(`${s!.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
      });
    const relative = await init('/mcp/castle?projectPath=src/app');
    expect(relative.status).toBe(400);
    expect(await relative.text()).toContain('must be an absolute path');
    const tx = await init('/mcp/tx?projectPath=/srv/app');
    expect(tx.status).toBe(400);
    expect(await tx.text()).toContain('the tx profile has none');
    const writer = await v2(`${s.url}/mcp/tx`);
    await writer.callTool({ name: 'tx_add', arguments: { title: 'Elsewhere' } });
    await writer.close();
    const castle = async (query: string) => {
      const c1 = new ClientV1({ name: 'v1', version: '1' });
      await c1.connect(new TransportV1(new URL(`${s!.url}/mcp/castle${query}`)));
      try {
        return text(await c1.callTool({ name: 'castle_list_tasks', arguments: {} }));
      } finally {
        await c1.close();
      }
    };
    expect(await castle('')).toContain('**Elsewhere**');
    // No project is rooted there: that directory has no tasks (never another project's).
    expect(await castle('?projectPath=/srv/nothing-here')).toBe('No tasks found.');
  });

  it('a read token lists only read tools and gets 403 on a profile write; a write token writes', async () => {
    s = await serve({ rateLimit: false });
    const ctx = { store: s.store, clock: systemClock, actor: 'test' };
    const read = await createToken(ctx, { name: 'reader', scope: 'read' });
    const write = await createToken(ctx, { name: 'writer', scope: 'write' });
    const r = await v2(`${s.url}/mcp/tx`, bearer(read.secret));
    try {
      const names = (await r.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(['tx_ready', 'tx_show', 'tx_list', 'tx_children']);
    } finally {
      await r.close();
    }
    const res = await fetch(`${s.url}/mcp/tx`, {
      method: 'POST',
      headers: { ...bearer(read.secret), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'tx_add', arguments: { title: 'x' } } }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^READ_ONLY: tx_add .*scope "write"/);
    const w = await v2(`${s.url}/mcp/tx`, bearer(write.secret));
    try {
      expect(text(await w.callTool({ name: 'tx_add', arguments: { title: 'Allowed' } }))).toBe('Created: TX-1 - Allowed');
    } finally {
      await w.close();
    }
    const anon = await fetch(`${s.url}/mcp/tx`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anon.status).toBe(401);
  });
});
