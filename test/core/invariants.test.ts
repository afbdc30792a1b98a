/**
 * Every invariant holds with many writers (issue 31, item 9): clients on separate connections run
 * random mixes of the racing writes (bench/lib/invariants.js), then a checker reads the database:
 * open-blocker counts equal a recount, no task is claimed twice, no lane position is shared, the
 * graph is acyclic, the feed has no gaps, and every acknowledged write is there exactly once. On
 * each engine in-process; on PostgreSQL also through two `cairn serve` replicas over REST, retries
 * carrying their Idempotency-Key. The benchmark's `invariants` section runs the same mix longer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkInvariants, runWorkload, type Client } from '../../bench/lib/invariants.js';
import { openCairn, type Cairn } from '../../src/index.js';
import { findOp } from '../../src/ops/index.js';
import { runOp } from '../../src/ops/run-op.js';
import { Outbox } from '../../src/remote/outbox.js';
import { HttpRemoteRunner } from '../../src/remote/remote-runner.js';
import { systemClock } from '../../src/core/ports.js';
import { onPostgres } from '../helpers/engine.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { serveProcess } from '../http/http-harness.js';

let ws: TempWorkspace | undefined;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  ws?.cleanup();
  ws = undefined;
});

/** A client on its own connection (its own store), calling ops in-process; a key goes in as REST's Idempotency-Key would. */
function inProcess(db: string, actor: string): Client {
  const c: Cairn = openCairn({ db, actor });
  closers.push(() => c.close());
  return (name, args, key) => runOp(findOp(name)!, { store: c.store, clock: systemClock, actor, ...(key ? { idempotencyKey: key } : {}) }, args);
}

/** A client of a `cairn serve` replica over REST, the way remote CLIs and MCP servers reach it. */
function overRest(url: string): Client {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-inv-outbox-'));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  const runner = new HttpRemoteRunner({ url, outbox: new Outbox(dir), timeoutMs: 60_000 });
  return (name, args, key) => runner.send(findOp(name)!, args, key);
}

/** The checker's reader: plain SQL on the workspace, through the engine's own driver. */
async function reader(db: string): Promise<(sql: string) => Promise<Array<Record<string, any>>>> {
  if (onPostgres) {
    const pg = (await import('pg')).default;
    const { parsePostgresUrl } = await import('../../src/store/postgres/connection.js');
    const t = parsePostgresUrl(db);
    const client = new pg.Client({ connectionString: t.connectionString });
    await client.connect();
    await client.query(`SET search_path TO "${t.schema}"`);
    closers.push(() => client.end());
    return async (sql) => (await client.query(sql)).rows;
  }
  // The binding Cairn picks for this Node: better-sqlite3 12 aborts on Node 24 when a statement is collected at exit.
  const { Database } = await import('../../src/store/sqlite/native.js');
  const file = new Database(db, { readonly: true });
  closers.push(async () => file.close());
  return async (sql) => file.prepare(sql).all() as Array<Record<string, any>>;
}

async function setUp(): Promise<string> {
  ws = tempWorkspace('cairn-inv-');
  const c = openCairn({ db: ws.db });
  await c.call('create_project', { key: 'INV', name: 'invariants' });
  await c.close();
  return ws.db;
}

describe('invariants under concurrent writers', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`run ${seed}: six clients on their own connections, 40 steps each`, async () => {
      const db = await setUp();
      const clients = Array.from({ length: 6 }, (_, i) => inProcess(db, `agent:${i}`));
      const run = await runWorkload({ clients, project: 'INV', steps: 40, seed });
      expect(run.unexpected).toEqual([]);
      expect(run.acked.creates.size).toBeGreaterThan(20);
      expect(await checkInvariants(await reader(db), run)).toEqual([]);
    }, 120_000);
  }

  it.skipIf(!onPostgres)(
    'two cairn serve replicas, three REST clients each, retries under their Idempotency-Key',
    async () => {
      const db = await setUp();
      const replicas = [await serveProcess(db), await serveProcess(db)];
      for (const r of replicas) closers.push(() => r.stop());
      const clients = Array.from({ length: 6 }, (_, i) => overRest(replicas[i % 2]!.url));
      const run = await runWorkload({ clients, project: 'INV', steps: 40, seed: 7 });
      expect(run.unexpected).toEqual([]);
      expect(await checkInvariants(await reader(db), run)).toEqual([]);
    },
    180_000,
  );
});
