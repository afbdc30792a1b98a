// Quick look at the SDK-client round trips on a fresh copy of the cached 1k workspace (not part of `npm run bench`).
import { Database } from '../dist/store/sqlite/native.js';
import { tidySearchIndex } from '../dist/store/sqlite/search-upkeep.js';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roundTrips } from './lib/round-trips.js';
const cache = process.env.CAIRN_BENCH_CACHE ?? join(tmpdir(), 'cairn-bench');
const src = join(cache, readdirSync(cache).find((f) => /^ws-1000-.*\.db$/.test(f)));
const dir = mkdtempSync(join(tmpdir(), 'sdk-probe-'));
const db = join(dir, 'ws.db');
const s = new Database(src, { readonly: true });
s.exec(`VACUUM INTO '${db}'`);
s.close();
const u = new Database(db); tidySearchIndex(u, 100_000);
const pick = (where, n) => u.prepare(`SELECT p.key || '-' || t.seq FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE ${where} ORDER BY random() LIMIT ?`).pluck().all(n);
const getIds = pick('1', 2000), liveIds = pick("t.deleted_at IS NULL AND t.category NOT IN ('done', 'canceled') AND t.claimed_by IS NULL", 2000);
const projects = u.prepare('SELECT key FROM projects').pluck().all();
u.close();
const only = (process.env.OPS ?? 'create,list,get,update,next').split(',');
const all = {
  create: (i) => ['create_task', { project: projects[i % projects.length], title: `probe task ${i}`, labels: ['bench'] }],
  list: (i) => ['list_tasks', { project: projects[i % projects.length] }],
  get: (i) => ['get_task', { id: getIds[i % getIds.length] }],
  update: (i) => ['update_task', { id: liveIds[i % liveIds.length], status: Math.floor(i / liveIds.length) % 2 ? 'todo' : 'in_progress' }],
  next: (i) => ['next_tasks', { project: projects[i % projects.length], limit: 1 }],
};
const calls = Object.fromEntries(only.map((k) => [k, all[k]]));
const root = join(import.meta.dirname, '..');
for (const kind of (process.env.KINDS ?? 'v1').split(',')) {
  const out = await roundTrips({ kind, command: process.execPath, args: [...(process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`] : []), join(root, 'bin/cairn.js'), 'mcp', '--db', db, '--as', 'agent:bench', ...(process.env.EXTRA ? process.env.EXTRA.split(' ') : [])], serverTiming: join(root, 'bench/lib/server-timing.mjs'), calls, warmup: Number(process.env.WARMUP ?? 300), n: Number(process.env.N ?? 1000) });
  for (const [k, m] of Object.entries(out).reverse()) console.log(kind, k.padEnd(7), 'total', m.total.p50.toFixed(3), 'client', m.client.p50.toFixed(3), 'server', m.server?.p50.toFixed(3), 'pipes', m.pipes?.toFixed(3));
}
