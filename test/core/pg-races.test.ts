/**
 * Races that one SQLite writer never meets (issue 31): two writers on PostgreSQL, interleaved at the
 * exact point that broke, each step waited for as an event (a backend waiting on a row lock, a
 * commit), never on the clock. The SQLite leg skips them: its writers go one at a time.
 */
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn, type Store } from '../../src/index.js';
import type { Tx } from '../../src/core/ports.js';
import { onPostgres, pgServerUrl } from '../helpers/engine.js';
import { waitFor } from '../helpers/wait.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';

let ws: TempWorkspace | undefined;
const opened: Cairn[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
  ws?.cleanup();
  ws = undefined;
});

function writer(actor: string): Cairn {
  const c = openCairn({ db: ws!.db, actor });
  opened.push(c);
  return c;
}

/** Wraps the next write transaction of `store`: `around(tx, run)` runs the body (run) and may hold the commit. */
function interceptNextWrite(store: Store, around: (tx: Tx, run: (tx: Tx) => Promise<unknown>) => Promise<unknown>): void {
  const write = store.write.bind(store);
  store.write = (async (fn: (tx: Tx) => Promise<unknown>) => {
    store.write = write;
    return write((tx) => around(tx, fn));
  }) as Store['write'];
}

/** Whether some backend of this server is waiting on a lock while running a statement that mentions `text`. */
async function someoneWaits(text: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: pgServerUrl() });
  await client.connect();
  try {
    const r = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND state = 'active' AND query ILIKE $1`, [`%${text}%`]);
    return r.rows[0].n > 0;
  } finally {
    await client.end();
  }
}

describe.skipIf(!onPostgres)('PostgreSQL: writers at once', () => {
  it('two blockers of one task completed at the same moment by two writers leave it ready', async () => {
    ws = tempWorkspace();
    const one = writer('agent:one');
    const two = writer('agent:two');
    await one.call('create_project', { key: 'RACE', name: 'race' });
    await one.call('create_project', { key: 'OTHER', name: 'other' });
    // Blockers in two projects: their completions share no lane, so nothing else puts them in line.
    const a = (await one.call('create_task', { project: 'RACE', title: 'Blocker A' })).task.id;
    const b = (await one.call('create_task', { project: 'OTHER', title: 'Blocker B' })).task.id;
    const d = (await one.call('create_task', { project: 'RACE', title: 'Dependent D', blockedBy: [a, b] })).task.id;

    // Writer one completes A and recounts D, then holds its commit until writer two waits on D's row.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let recounted!: () => void;
    const inside = new Promise<void>((r) => (recounted = r));
    interceptNextWrite(one.store, async (tx, run) => {
      const out = await run(tx);
      recounted();
      await held;
      return out;
    });
    const first = one.call('complete_task', { id: a });
    await inside;
    const second = two.call('complete_task', { id: b });
    await waitFor(() => someoneWaits('open_blockers'), 'writer two waiting on the dependent row');
    release();
    await Promise.all([first, second]);

    const reader = writer('reader');
    const task = (await reader.call('get_task', { id: d })).task;
    expect(task.openBlockers).toEqual([]);
    expect((await reader.call('next_tasks', { project: 'RACE' })).tasks.map((t: { id: string }) => t.id)).toContain(d);
  });

  it('claim_next skips a candidate another writer finished between the pick and the claim', async () => {
    ws = tempWorkspace();
    const one = writer('agent:one');
    const two = writer('agent:two');
    await one.call('create_project', { key: 'PICK', name: 'pick' });
    const first = (await one.call('create_task', { project: 'PICK', title: 'First', priority: 'urgent' })).task.id;
    const second = (await one.call('create_task', { project: 'PICK', title: 'Second', priority: 'low' })).task.id;

    // Right after claim_next lists its candidates, another writer finishes the first one and commits.
    interceptNextWrite(one.store, (tx, run) =>
      run(
        new Proxy(tx, {
          get(target, key, receiver) {
            const value = Reflect.get(target, key, receiver) as unknown;
            if (key !== 'listTasks' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
            return async (...args: unknown[]) => {
              const out = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              await two.call('complete_task', { id: first });
              return out;
            };
          },
        }),
      ),
    );
    const claimed = await one.call('claim_next', { project: 'PICK' });
    expect(claimed.task?.id).toBe(second);
    expect(claimed.task?.claim?.actor).toBe('agent:one');
  });

  it('two tasks moved into one lane at the same moment (two claims) take two positions', async () => {
    ws = tempWorkspace();
    const one = writer('agent:one');
    const two = writer('agent:two');
    await one.call('create_project', { key: 'LANE', name: 'lane' });
    const a = (await one.call('create_task', { project: 'LANE', title: 'Task A' })).task.id;
    const b = (await one.call('create_task', { project: 'LANE', title: 'Task B' })).task.id;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let placed!: () => void;
    const inside = new Promise<void>((r) => (placed = r));
    interceptNextWrite(one.store, async (tx, run) => {
      const out = await run(tx);
      placed();
      await held;
      return out;
    });
    const first = one.call('claim_task', { id: a });
    await inside;
    // Writer two waits for the lane (the fix), or reads the same last position and then waits for the
    // feed counter (every write's event), to finish with that position once writer one commits.
    const second = two.call('claim_task', { id: b });
    await waitFor(async () => (await someoneWaits('pg_advisory_xact_lock')) || (await someoneWaits('cairn_feed')), 'writer two waiting for the lane or the feed');
    release();
    await Promise.all([first, second]);
    const url = new URL(ws.db);
    const schema = url.searchParams.get('schema');
    url.search = '';
    const raw = new pg.Client({ connectionString: url.toString() });
    await raw.connect();
    try {
      const rows = (await raw.query(`SELECT status, position FROM ${schema}.tasks ORDER BY position`)).rows as Array<{ status: string; position: number }>;
      const lane = rows.filter((r) => r.status === rows.find((x) => x.status !== 'todo')?.status);
      expect(lane).toHaveLength(2);
      expect(new Set(lane.map((r) => Number(r.position))).size).toBe(2);
    } finally {
      await raw.end();
    }
  });

  it('a reader on an older snapshot never leaves its count under a newer state (CountCache)', async () => {
    ws = tempWorkspace();
    const one = writer('agent:one');
    await one.call('create_project', { key: 'CNT', name: 'counts' });
    for (let i = 0; i < 3; i++) await one.call('create_task', { project: 'CNT', title: `t${i}` });

    const { parsePostgresUrl, openPool } = await import('../../src/store/postgres/connection.js');
    const { cairnPostgresDialect } = await import('../../src/store/postgres/engine-sql.js');
    const { CountCache } = await import('../../src/store/queries/task-list.js');
    const pool = openPool(parsePostgresUrl(ws.db), 4);
    const db = new Kysely<any>({ dialect: cairnPostgresDialect(pool) });
    try {
      const cache = new CountCache();
      const snapshot = <T>(fn: (trx: Kysely<any>) => Promise<T>) => db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn);
      const countIn = async (trx: Kysely<any>) => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM tasks`.execute(trx)).rows[0]!.n);

      // Reader A takes its snapshot (3 tasks) and, before it counts, a fourth task commits and reader B counts it.
      const a = snapshot((trx) =>
        cache.get(trx, 'all', async () => {
          await one.call('create_task', { project: 'CNT', title: 't3' });
          expect(await snapshot((b) => cache.get(b, 'all', () => countIn(b)))).toBe(4);
          return countIn(trx);
        }),
      );
      expect(await a).toBe(3); // right for A's own snapshot
      // A later reader at the newer state must get 4, not A's 3.
      expect(await snapshot((c) => cache.get(c, 'all', () => countIn(c)))).toBe(4);
    } finally {
      await db.destroy();
    }
  });
});
