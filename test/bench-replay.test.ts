/**
 * The peers benchmark's floors (bench/lib/replay-server.mjs): a stdio server that answers with
 * recorded answers, at once or after keeping its CPU busy for a tool's recorded server time. The
 * "floor at Cairn's server time" row is only meaningful if the wait really happens, per tool.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const REPLAY = join(import.meta.dirname, '..', 'bench', 'lib', 'replay-server.mjs');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const tool = (name: string) => ({ name, inputSchema: { type: 'object', properties: {} } });
const answer = (text: string) => ({ content: [{ type: 'text', text }] });

async function replay(recorded: unknown): Promise<Client> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-replay-'));
  dirs.push(dir);
  const file = join(dir, 'replay.json');
  writeFileSync(file, JSON.stringify(recorded));
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [REPLAY, file], stderr: 'ignore' }));
  return client;
}

describe('the benchmark replay server', () => {
  it('answers each tool with its recorded answer, after the busy time recorded for that tool only', async () => {
    const client = await replay({
      tools: { tools: [tool('slow'), tool('quick')] },
      calls: { slow: answer('slow answer'), quick: answer('quick answer') },
      busyUs: { slow: 30_000 },
    });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['slow', 'quick']);
      const t0 = performance.now();
      const slow = await client.callTool({ name: 'slow', arguments: {} });
      const slowMs = performance.now() - t0;
      expect(slow.content).toEqual([{ type: 'text', text: 'slow answer' }]);
      // A busy wait cannot end early: the round trip holds at least the recorded 30 ms.
      expect(slowMs).toBeGreaterThanOrEqual(30);
      expect((await client.callTool({ name: 'quick', arguments: {} })).content).toEqual([{ type: 'text', text: 'quick answer' }]);
    } finally {
      await client.close();
    }
  });
});
