// Invariants section: the long run of the concurrent invariant check (bench/lib/invariants.js; the
// short one is test/core/invariants.test.ts). Eight clients on their own connections run 400 random
// racing writes each, five runs per setup, then the checker reads the database. Runs at 1k only: it
// makes its own workspaces. Reported: operations, their throughput (median run), and what broke
// (which must be nothing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openCairn } from '../dist/index.js';
import { findOp } from '../dist/ops/index.js';
import { runOp } from '../dist/ops/run-op.js';
import { Outbox } from '../dist/remote/outbox.js';
import { HttpRemoteRunner } from '../dist/remote/remote-runner.js';
import { systemClock } from '../dist/core/ports.js';
import { Database } from '../dist/store/sqlite/native.js';
import { checkInvariants, runWorkload } from './lib/invariants.js';
import { startPostgres } from './lib/postgres-server.js';

const BIN = fileURLToPath(new URL('../bin/cairn.js', import.meta.url));
const CLIENTS = 8;
const STEPS = 400;
const RUNS = 5;

function inProcess(db, actor, closers) {
  const c = openCairn({ db, actor });
  closers.push(() => c.close());
  return (name, args, key) => runOp(findOp(name), { store: c.store, clock: systemClock, actor, ...(key ? { idempotencyKey: key } : {}) }, args);
}

function overRest(url, closers) {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-inv-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const runner = new HttpRemoteRunner({ url, outbox: new Outbox(dir), timeoutMs: 60_000 });
  return (name, args, key) => runner.send(findOp(name), args, key);
}

function serve(db) {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CAIRN_ACCESS_LOG: '0', CAIRN_RATE_LIMIT: '0' } });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /"url":"(http:\/\/[^"]+)"/.exec(err);
      if (m) ok({ url: m[1], stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => fail(new Error(`cairn serve exited (${code}): ${err}`)));
  });
}

/** One run on a fresh workspace: `clients(db, closers)` makes the clients, `query(db)` the checker's reader. */
async function oneRun(db, seed, clients, reader) {
  const closers = [];
  try {
    const setup = openCairn({ db });
    await setup.call('create_project', { key: 'INV', name: 'invariants' });
    await setup.close();
    const run = await runWorkload({ clients: await clients(db, closers), project: 'INV', steps: STEPS, seed });
    const { query, close } = await reader(db);
    closers.push(close);
    const broken = await checkInvariants(query, run);
    return { ops: run.ops, ms: run.ms, broken: broken.length + run.unexpected.length, detail: [...run.unexpected, ...broken].slice(0, 5) };
  } finally {
    for (const c of closers.reverse()) await c();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export const section = {
  name: 'invariants',
  async run({ dir, log }) {
    const title = 'Invariants under concurrent writers';
    const values = [];
    const notes = [];
    const report = (key, label, runs) => {
      const rate = median(runs.map((r) => r.ops / (r.ms / 1000)));
      const broken = runs.reduce((n, r) => n + r.broken, 0);
      values.push({ key: `${key}_ops`, label: `${label}: operations over ${runs.length} runs`, value: runs.reduce((n, r) => n + r.ops, 0), unit: 'ops' });
      values.push({ key: `${key}_rate`, label: `${label}: throughput, median run`, value: rate, unit: 'ops/s' });
      values.push({ key: `${key}_broken`, label: `${label}: invariants broken`, value: broken, unit: '', target: { max: 0 } });
      for (const r of runs) notes.push(...r.detail.map((d) => `${label}: ${d}`));
      log(`${label}: ${broken} broken, ${rate.toFixed(0)} ops/s`);
    };

    const sqliteReader = async (db) => {
      const file = new Database(db, { readonly: true });
      return { query: async (sql) => file.prepare(sql).all(), close: async () => file.close() };
    };
    const local = (db, closers) => Array.from({ length: CLIENTS }, (_, i) => inProcess(db, `agent:${i}`, closers));
    const sqliteRuns = [];
    for (let seed = 1; seed <= RUNS; seed++) sqliteRuns.push(await oneRun(join(dir, `inv-${seed}.db`), seed, local, sqliteReader));
    report('sqlite', 'SQLite, in-process', sqliteRuns);

    const server = await startPostgres({ log });
    try {
      const schemaOf = (seed, kind) => {
        const u = new URL(server.schemaUrl);
        u.searchParams.set('schema', `${u.searchParams.get('schema')}_${kind}${seed}`);
        return u.toString();
      };
      const pgReader = async (db) => {
        const u = new URL(db);
        const schema = u.searchParams.get('schema');
        u.searchParams.delete('schema');
        const client = new pg.Client({ connectionString: u.toString() });
        await client.connect();
        await client.query(`SET search_path TO "${schema}"`);
        return {
          query: async (sql) => (await client.query(sql)).rows,
          close: async () => {
            await client.query(`DROP SCHEMA "${schema}" CASCADE`);
            await client.end();
          },
        };
      };
      const pgRuns = [];
      for (let seed = 1; seed <= RUNS; seed++) pgRuns.push(await oneRun(schemaOf(seed, 'p'), seed, local, pgReader));
      report('pg', 'PostgreSQL, in-process', pgRuns);

      const replicaRuns = [];
      for (let seed = 1; seed <= RUNS; seed++) {
        replicaRuns.push(
          await oneRun(
            schemaOf(seed, 'r'),
            seed,
            async (db, closers) => {
              const replicas = [await serve(db), await serve(db)];
              for (const r of replicas) closers.push(() => r.stop());
              return Array.from({ length: CLIENTS }, (_, i) => overRest(replicas[i % 2].url, closers));
            },
            pgReader,
          ),
        );
      }
      report('replicas', 'PostgreSQL, two cairn serve replicas over REST', replicaRuns);
    } finally {
      await server.stop();
    }
    return {
      title,
      method:
        `${CLIENTS} clients at once, each on its own connection, ${STEPS} random steps each (create in one lane with up to two blockers, a retry under the same idempotency key for 30% of creates, complete, claim_next, add and remove dependencies, update with expectedVersion, comment), ${RUNS} runs per setup with seeds 1–${RUNS}. ` +
        'In-process: each client its own openCairn store (SQLite file, PostgreSQL pool). Replicas: two `cairn serve` processes on one PostgreSQL schema, clients alternating between them over REST with their Idempotency-Key. ' +
        'Then the checker (bench/lib/invariants.js) reads the database: open-blocker counts equal a recount, no task claimed twice by claim_next, no lane position shared, the graph acyclic, the feed without gaps, every acknowledged create and comment present exactly once, and no error outside the expected refusals (claim_next: none at all).',
      metrics: [],
      values,
      notes,
    };
  },
};
