// Footprint section: what writes cost the disk and what `cairn serve` holds in memory.
//  - WAL bytes per create_task and per update_task, in-process on a copy of the workspace (new files have
//    2 KiB pages) and on the same workspace rewritten with the 4 KiB pages of files made before (VACUUM INTO);
//    checkpoints are held off (checkpointerTesting.manual) so the log only grows, and its growth is what
//    the writes appended.
//  - the WAL file's largest size during a steady stream of writes, with the checkpointer free-running.
//  - `cairn serve` RSS: idle, with 50 MCP sessions (v1 client, 2025-11-25) open after their calls, and
//    after the clients close (without DELETE, as the v1 client's close() does).
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { openCairn } from '../dist/index.js';
import { checkpointerTesting } from '../dist/store/sqlite/checkpointer.js';
import { Database } from '../dist/store/sqlite/native.js';
import { startServe } from '../scripts/lib/start-serve.js';
import { PROJECTS } from './lib/words.js';

const WARM_WRITES = 3000;
const WAL_WRITES = 1000;
const STEADY_WRITES = 20_000;
const SESSIONS = 50;
const SESSION_CALLS = 100;
/** After the clients close: past the server's 10 s grace for a session whose stream ended, and its heap compaction 6 s later. */
const AFTER_CLOSE_MS = 20_000;
const MB = 1024 * 1024;

const walSize = (db) => (existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function liveIds(db, n) {
  const s = new Database(db, { readonly: true });
  const ids = s
    .prepare(
      "SELECT p.key || '-' || t.seq FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE t.deleted_at IS NULL AND t.category NOT IN ('done', 'canceled') AND t.claimed_by IS NULL ORDER BY t.num LIMIT ?",
    )
    .pluck()
    .all(n);
  s.close();
  return ids;
}

/** The same workspace with 4 KiB pages, as files made before smaller pages were. */
function withOldPages(db) {
  const copy = `${db.replace(/\.db$/, '')}-4k.db`;
  const src = new Database(db);
  src.pragma('page_size = 4096');
  src.prepare('VACUUM INTO ?').run(copy);
  src.close();
  const c = new Database(copy);
  c.pragma('journal_mode = WAL');
  // And the search index's leaf size for those pages (migration 19 sized it to the smaller page).
  c.exec("INSERT INTO task_search (task_search, rank) VALUES ('pgsz', 4050)");
  c.close();
  return copy;
}

/** Bytes the log grew by per create and per update (checkpoints held off: nothing is copied out or restarted). */
async function walPerWrite(db) {
  const ids = liveIds(db, 2000);
  checkpointerTesting.manual = true;
  const cairn = openCairn({ db, actor: 'agent:bench' });
  const create = (i) => cairn.call('create_task', { project: PROJECTS[i % PROJECTS.length].key, title: `footprint ${i}`, labels: ['bench'] });
  // A new priority each time, so every update writes (one that changes nothing writes nothing).
  const PRI = ['low', 'medium', 'high', 'urgent'];
  const update = (i) => cairn.call('update_task', { id: ids[i % ids.length], priority: PRI[(i + Math.floor(i / ids.length)) % PRI.length] });
  const perWrite = async (fn) => {
    for (let i = 0; i < WARM_WRITES; i++) await fn(i);
    const w0 = walSize(db);
    for (let i = WARM_WRITES; i < WARM_WRITES + WAL_WRITES; i++) await fn(i);
    return (walSize(db) - w0) / WAL_WRITES;
  };
  const out = { create: await perWrite(create), update: await perWrite(update), pageSize: (cairn.store.inner ?? cairn.store).raw().pragma('page_size', { simple: true }) };
  await cairn.close();
  checkpointerTesting.manual = false;
  return out;
}

/** The WAL file's largest size over a steady stream of writes (creates and updates alternating), checkpointer free-running. */
async function steadyWal(db) {
  const ids = liveIds(db, 2000);
  const cairn = openCairn({ db, actor: 'agent:bench' });
  let max = 0;
  const t0 = performance.now();
  for (let i = 0; i < STEADY_WRITES; i++) {
    if (i % 2) await cairn.call('update_task', { id: ids[i % ids.length], score: 5000 + i });
    else await cairn.call('create_task', { project: PROJECTS[i % PROJECTS.length].key, title: `steady ${i}`, labels: ['bench'] });
    if (i % 50 === 0) max = Math.max(max, walSize(db));
  }
  const seconds = (performance.now() - t0) / 1000;
  max = Math.max(max, walSize(db));
  await cairn.close();
  return { max, seconds };
}

const rssOf = (pid) => {
  const st = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: Number(/VmRSS:\s+(\d+)/.exec(st)?.[1] ?? NaN) / 1024, hwm: Number(/VmHWM:\s+(\d+)/.exec(st)?.[1] ?? NaN) / 1024 };
};

/** cairn serve's RSS idle, with SESSIONS sessions open after SESSION_CALLS calls each, and AFTER_CLOSE_MS after the clients close. */
async function serveRss(db, log) {
  const ids = liveIds(db, 500);
  const { child, url } = await startServe(db, { CAIRN_RATE_LIMIT: '0' });
  try {
    const connect = async () => {
      const c = new ClientV1({ name: 'bench', version: '1' });
      await c.connect(new TransportV1(new URL(`${url}/mcp`)));
      return c;
    };
    const calls = async (c, k) => {
      for (let i = 0; i < SESSION_CALLS; i++) {
        await c.callTool(i % 2 ? { name: 'get_task', arguments: { id: ids[(k * SESSION_CALLS + i) % ids.length] } } : { name: 'list_tasks', arguments: { limit: 20 } });
      }
    };
    // Warm: the code the sessions run is compiled and the rows they read are in SQLite's page cache
    // before "idle" is read, so the figures after are about sessions, not caches.
    const warm = await connect();
    for (let k = 0; k < SESSIONS; k++) await calls(warm, k);
    // Ended with DELETE, so the server's compaction after sessions end has run when idle is read.
    await warm.transport.terminateSession();
    await warm.close();
    await sleep(10_000);
    const idle = rssOf(child.pid);
    log(`${SESSIONS} sessions`);
    const clients = await Promise.all(Array.from({ length: SESSIONS }, connect));
    await Promise.all(clients.map(calls));
    const open = rssOf(child.pid);
    await Promise.all(clients.map((c) => c.close()));
    await sleep(AFTER_CLOSE_MS);
    const after = rssOf(child.pid);
    return { idle: idle.rss, open: open.rss, peak: open.hwm, after: after.rss };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

/**
 * The "before": what a write appended to the WAL with 4 KiB pages and the schema before
 * migration 20, by this section at 1k / 10k / 100k tasks (KiB). The target is half of it, judged at
 * 1k, where a create is furthest from it: the issue asked to at least halve the bytes a create and an
 * update write. (The "4 KiB pages" rows below are today's schema with the old page size, which
 * migration 20 helped too.)
 */
const BEFORE_KIB = { create: { 1000: 120, 10000: 122, 100000: 133 }, update: { 1000: 77, 10000: 82, 100000: 85 } };

export const section = {
  name: 'footprint',
  async run({ size, db, log }) {
    log('WAL bytes per write');
    const oldPages = withOldPages(db);
    const fresh = await walPerWrite(db);
    const before = await walPerWrite(oldPages);
    log('steady writes');
    const steady = await steadyWal(oldPages);
    rmSync(oldPages, { force: true });
    for (const f of ['-wal', '-shm']) rmSync(`${oldPages}${f}`, { force: true });
    const steadyNew = await steadyWal(db);
    log('cairn serve RSS');
    const rss = await serveRss(db, log);
    const kib = (b) => b / 1024;
    return {
      title: 'Footprint: WAL and server memory',
      method:
        `WAL bytes per write: in-process (openCairn) on a copy of the workspace, checkpoints held off so the log only grows; ${WARM_WRITES} writes first, which settle the index pages where new entries land (the bulk load leaves them full), then ${WAL_WRITES} measured: create_task (title, one label) and update_task (a new priority each time). ` +
        `"4 KiB pages" rows: the same workspace rewritten with the page size of files made before (VACUUM INTO), as an existing workspace keeps it. ` +
        `Steady writes: ${STEADY_WRITES} creates and updates back to back with the checkpointer free-running; the WAL file's largest size. ` +
        `Serve RSS: the built \`cairn serve\`; idle after a warm-up session that made every call the sessions will make; then ${SESSIONS} v1 SDK clients (2025-11-25, a session each) make ${SESSION_CALLS} calls each (list_tasks and get_task alternating) and RSS is read with all sessions open (peak: VmHWM); ` +
        `then the clients close (the v1 client sends no DELETE) and RSS is read ${AFTER_CLOSE_MS / 1000} s later.`,
      metrics: [],
      values: [
        {
          key: 'walCreate',
          label: `WAL per create_task, ${fresh.pageSize} B pages (new workspaces)`,
          value: kib(fresh.create),
          unit: 'KiB',
          ...(BEFORE_KIB.create[size] ? { target: { max: BEFORE_KIB.create[size] / 2 }, targetSize: 1000 } : {}),
        },
        {
          key: 'walUpdate',
          label: `WAL per update_task, ${fresh.pageSize} B pages (new workspaces)`,
          value: kib(fresh.update),
          unit: 'KiB',
          ...(BEFORE_KIB.update[size] ? { target: { max: BEFORE_KIB.update[size] / 2 }, targetSize: 1000 } : {}),
        },
        { key: 'walCreate4k', label: `WAL per create_task, ${before.pageSize} B pages (workspaces made before)`, value: kib(before.create), unit: 'KiB' },
        { key: 'walUpdate4k', label: `WAL per update_task, ${before.pageSize} B pages (workspaces made before)`, value: kib(before.update), unit: 'KiB' },
        { key: 'walSteady', label: `WAL file at its largest, ${STEADY_WRITES} steady writes (new workspace)`, value: steadyNew.max / MB, unit: 'MB', target: { max: 64 } },
        { key: 'walSteady4k', label: `WAL file at its largest, ${STEADY_WRITES} steady writes (4 KiB pages)`, value: steady.max / MB, unit: 'MB', target: { max: 64 } },
        { key: 'rssIdle', label: 'cairn serve RSS, idle', value: rss.idle, unit: 'MB' },
        { key: 'rssOpen', label: `cairn serve RSS, ${SESSIONS} sessions open`, value: rss.open, unit: 'MB', target: { max: 200 } },
        { key: 'rssPeak', label: `cairn serve peak RSS (VmHWM), ${SESSIONS} sessions`, value: rss.peak, unit: 'MB', target: { max: 200 } },
        { key: 'rssAfter', label: `cairn serve RSS, ${AFTER_CLOSE_MS / 1000} s after the clients closed`, value: rss.after, unit: 'MB', target: { max: Math.round(rss.idle * 1.1) } },
      ],
      notes: [`steady writes: ${(STEADY_WRITES / steadyNew.seconds).toFixed(0)} writes/s (new workspace), ${(STEADY_WRITES / steady.seconds).toFixed(0)} writes/s (4 KiB pages)`],
    };
  },
};
