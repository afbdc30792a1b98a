/**
 * A replica that dies never strands a client (issue 31, item 7): a 2025 client (v1 SDK, sessions)
 * with a tool call in flight to a `cairn serve` killed with SIGKILL hears of it at once, rather
 * than waiting out its request timeout while it tries to resume a stream no other replica can
 * honour.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Database } from '../../src/store/sqlite/native.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { onPostgres } from '../helpers/engine.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { serveProcess } from './http-harness.js';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.cleanup();
  ws = undefined;
});

describe.skipIf(onPostgres)('a replica killed mid-call', () => {
  it.each(['2025 (v1 SDK, sessions)', '2026 (v2 SDK)'])(
    'a %s client with a tool call in flight gets a connection error at once, not a timeout',
    async (era) => {
      ws = tempWorkspace();
      const setup = openCairn({ db: ws.db });
      await setup.call('create_project', { key: 'API', name: 'API' });
      await setup.close();
      const server = await serveProcess(ws.db);
      // Another writer holds the database, so the call waits inside the server until it is killed.
      const holder = new Database(ws.db);
      holder.exec('BEGIN IMMEDIATE');
      let posted!: () => void;
      const callSent = new Promise<void>((ok) => (posted = ok));
      const watched = async (input: string | URL | Request, init?: RequestInit) => {
        if (init?.method === 'POST' && String(init.body).includes('"tools/call"')) posted();
        return fetch(input, init);
      };
      const v1 = era.startsWith('2025');
      const client = v1 ? new ClientV1({ name: 'replica-death', version: '1' }) : new ClientV2({ name: 'replica-death', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      const transport = v1 ? new HttpV1(new URL(`${server.url}/mcp`), { fetch: watched }) : new HttpV2(new URL(`${server.url}/mcp`), { fetch: watched });
      try {
        await (client as ClientV1).connect(transport as HttpV1);
        const call = (client as ClientV1).callTool({ name: 'create_task', arguments: { project: 'API', title: 'In flight' } }, undefined, { timeout: 45_000 }).then(
          () => 'answered',
          (err: Error) => err.message,
        );
        await callSent;
        await new Promise((r) => setTimeout(r, 500)); // the request reaches the server and waits on the lock
        await server.kill();
        const outcome = await call;
        expect(outcome).not.toBe('answered');
        expect(outcome).not.toMatch(/timed out/i);
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
        await client.close().catch(() => undefined);
        await server.stop();
      }
    },
    60_000,
  );
});
