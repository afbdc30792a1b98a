/**
 * What Cairn mirrors from or replaces in its dependencies, each pinned by a check that fails when the
 * dependency changes (docs/decisions.md, "Reaching into dependencies"):
 * - tools/list, answered by Cairn (src/mcp/tool-list.ts) so unserved tools stay callable with a
 *   refusal yet unlisted: its entries must be the SDK's own for a server that hides nothing;
 * - the bundle's stand-in for `@modelcontextprotocol/server/_shims` (scripts/mcp-shims.js);
 * - the bundle's zod safeParse failure patch (test/mcp/zod-failure-patch.test.ts checks the pattern).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import * as realShims from '@modelcontextprotocol/server/_shims';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { buildMcpServer, selectOps } from '../../src/mcp/server.js';
import { registerOpTools } from '../../src/mcp/tools.js';
import { TOOLSETS } from '../../src/ops/index.js';
// @ts-expect-error plain JS build script, no types
import * as ourShims from '../../scripts/mcp-shims.js';
import { tempCairn } from '../helpers/workspace.js';

describe('MCP SDK internals Cairn relies on', () => {
  it("lists each tool exactly as the SDK's own tools/list would (a server that hides nothing)", async () => {
    const c = tempCairn();
    const listOf = async (server: McpServer) => {
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(a);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(b);
      try {
        return (await client.listTools()).tools;
      } finally {
        await client.close();
        await server.close();
      }
    };
    try {
      const ours = await listOf(buildMcpServer({ store: c.store, actor: 'agent', toolsets: [...TOOLSETS], readOnly: false }));
      // The SDK's handler, over the same registrations.
      const plain = new McpServer({ name: 't', version: '1' });
      registerOpTools(plain, selectOps(TOOLSETS, false), {
        toolsets: [...TOOLSETS],
        context: async () => ({ store: c.store, clock: systemClock, actor: 'agent' }),
        track: (_t, w) => w(),
        onInternal: () => undefined,
      });
      const sdk = await listOf(plain);
      expect(ours.map((t) => t.name)).toEqual(sdk.map((t) => t.name));
      expect(ours).toEqual(sdk);
    } finally {
      await c.done();
    }
  });

  it('so a server lists only its toolsets, and a call to another tool answers FORBIDDEN naming the toolset', async () => {
    const c = tempCairn();
    const server = buildMcpServer({ store: c.store, actor: 'agent', toolsets: ['tasks'], readOnly: false });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(b);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('list_tasks');
      expect(names).not.toContain('archive_project');
      const r = (await client.callTool({ name: 'archive_project', arguments: { key: 'API' } })) as { isError?: boolean; content: Array<{ text?: string }> };
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(/^FORBIDDEN: archive_project is in the admin toolset/);
    } finally {
      await client.close();
      await server.close();
      await c.done();
    }
  });

  it("the bundle's _shims stand-in exports what the SDK's own shim does, and the SDK still takes jsonSchemaValidator from options first", () => {
    expect(Object.keys(ourShims).sort()).toEqual(Object.keys(realShims).sort());
    const pkg = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server'));
    const server = readFileSync(join(pkg, readFileSync(join(pkg, 'index.mjs'), 'utf8').match(/from "\.\/(mcp-[\w-]+\.mjs)"/)![1]!), 'utf8');
    expect(server).toContain('import { DefaultJsonSchemaValidator } from "@modelcontextprotocol/server/_shims"');
    expect(server).toContain('options?.jsonSchemaValidator ?? new DefaultJsonSchemaValidator()');
  });
});
