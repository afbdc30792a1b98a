// node:sqlite (built into Node 22.13+ and 24) beside better-sqlite3, on the statements Cairn's hot
// paths run, against a copy of a benchmark workspace: reading a task by key, a lane of 50, the ready
// queue, a word search, and a write transaction (update a task, append its event, commit) as
// commitTaskChange makes it. Same file, same pragmas as src/store/sqlite/open.ts, alternating the two
// drivers round by round. Run on Node 22 or 24:
//   node bench/sqlite-drivers.js <workspace.db> [better-sqlite3 module path]
// The module path lets a Node other than the one that ran `npm ci` load a better-sqlite3 built for it.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const [source, modulePath] = process.argv.slice(2);
if (!source) throw new Error('usage: node bench/sqlite-drivers.js <workspace.db> [better-sqlite3 path]');
const BetterSqlite3 = require(modulePath ?? (Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3'));
const { DatabaseSync } = await import('node:sqlite');

const PRAGMAS = ['busy_timeout = 30000', 'journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'temp_store = MEMORY', 'cache_size = -8000'];
const SQL = {
  get: `SELECT t.*, p.key AS project_key FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE p.key = ? AND t.seq = ?`,
  lane: `SELECT uid, seq, title, status, priority, rel_labels, assignee, position, rel_blocked_by, rel_blocks FROM tasks WHERE project_uid = ? AND status = ? AND deleted_at IS NULL AND archived_at IS NULL ORDER BY position LIMIT 50`,
  ready: `SELECT uid, seq, title, priority, score FROM tasks WHERE project_uid = ? AND category = 'todo' AND open_blockers = 0 AND deleted_at IS NULL AND archived_at IS NULL AND (claimed_by IS NULL OR claim_expires_at < ?) ORDER BY priority DESC, score DESC, position LIMIT 10`,
  search: `SELECT rowid, rank FROM task_search WHERE task_search MATCH ? ORDER BY rank LIMIT 20`,
  update: `UPDATE tasks SET priority = ?, version = version + 1, updated_at = ?, rev = rev + 1 WHERE uid = ?`,
  event: `INSERT INTO events (at, actor, project_uid, task_uid, type, changes, via) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
};

function open(kind, file) {
  if (kind === 'better-sqlite3') {
    const db = new BetterSqlite3(file);
    for (const p of PRAGMAS) db.pragma(p);
    return { exec: (s) => db.exec(s), prep: (sql) => db.prepare(sql), close: () => db.close() };
  }
  const db = new DatabaseSync(file);
  for (const p of PRAGMAS) db.exec(`PRAGMA ${p}`);
  return { exec: (s) => db.exec(s), prep: (sql) => db.prepare(sql), close: () => db.close() };
}

const percentile = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const dir = mkdtempSync(join(tmpdir(), 'cairn-drivers-'));
const file = join(dir, 'cairn.db');
copyFileSync(source, file);
const sample = open('better-sqlite3', file);
const tasks = sample.prep(`SELECT p.key, t.seq, t.uid, t.project_uid FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE t.deleted_at IS NULL ORDER BY random() LIMIT 2000`).all();
sample.close();
const words = ['webhook', 'token', 'cache', 'parser', 'login', 'timeout', 'session', 'retry'];

function round(kind, n) {
  const db = open(kind, file);
  const st = Object.fromEntries(Object.entries(SQL).map(([k, s]) => [k, db.prep(s)]));
  const now = new Date().toISOString();
  const pick = (i) => tasks[i % tasks.length];
  const ops = {
    get: (i) => st.get.get(pick(i).key, pick(i).seq),
    lane: (i) => st.lane.all(pick(i).project_uid, 'todo'),
    ready: (i) => st.ready.all(pick(i).project_uid, now),
    search: (i) => st.search.all(words[i % words.length]),
    write: (i) => {
      const t = tasks[(i * 7) % tasks.length];
      db.exec('BEGIN IMMEDIATE');
      st.update.run(['low', 'medium', 'high'][i % 3], now, t.uid);
      st.event.get(now, 'agent:bench', t.project_uid, t.uid, 'task.updated', '{"priority":{"before":"low","after":"high"}}', 'bench');
      db.exec('COMMIT');
    },
  };
  const out = {};
  for (const [name, fn] of Object.entries(ops)) {
    for (let i = 0; i < 200; i++) fn(i);
    const times = [];
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      fn(i);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    times.sort((a, b) => a - b);
    out[name] = percentile(times, 50);
  }
  db.close();
  return out;
}

const kinds = ['better-sqlite3', 'node:sqlite'];
const rounds = Object.fromEntries(kinds.map((k) => [k, []]));
for (let r = 0; r < 6; r++) for (const k of r % 2 ? [...kinds].reverse() : kinds) rounds[k].push(round(k, 2000));
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`Node ${process.version}, ${tasks.length} sampled tasks, 6 alternating rounds of 2000 calls; p50 per round, median of rounds (ms)`);
console.log('| statement | better-sqlite3 | node:sqlite | node:sqlite ÷ better-sqlite3 |');
console.log('|---|---|---|---|');
for (const op of Object.keys(rounds['better-sqlite3'][0])) {
  const b = median(rounds['better-sqlite3'].map((x) => x[op]));
  const n = median(rounds['node:sqlite'].map((x) => x[op]));
  console.log(`| ${op} | ${b.toFixed(4)} | ${n.toFixed(4)} | ${(n / b).toFixed(2)} × |`);
}
