// Benchmark workspaces: built once per size and schema into a temp cache, then copied fresh for every run
// (runs write to their copy). Sections for other surfaces (MCP, HTTP) call freshWorkspace() too.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SQLITE_MIGRATIONS } from '../../dist/store/migrations/sqlite.js';
import { NEW_FILE_PAGE_SIZE } from '../../dist/store/sqlite/open.js';

const here = dirname(fileURLToPath(import.meta.url));
export const CACHE_DIR = process.env.CAIRN_BENCH_CACHE ?? join(tmpdir(), 'cairn-bench');

/** Changes when the schema, the page size of new files or the generator changes, so a stale cached file is never reused. */
function cacheKey() {
  const h = createHash('sha256');
  for (const m of SQLITE_MIGRATIONS) h.update(`${m.version}\n${m.sql}\n`);
  h.update(`page ${NEW_FILE_PAGE_SIZE}\n`);
  for (const f of ['build-workspace.js', 'words.js', 'random.js']) h.update(readFileSync(join(here, f)));
  return h.digest('hex').slice(0, 12);
}

/**
 * Path of the cached workspace with `size` tasks, building it if needed (in a child process, so the
 * build's memory never counts toward a benchmark's peak RSS). Returns the build time and counts.
 */
export function cachedWorkspace(size, { rebuild = false, log = () => {} } = {}) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const base = join(CACHE_DIR, `ws-${size}-${cacheKey()}`);
  const file = `${base}.db`;
  const metaFile = `${base}.json`;
  if (!rebuild && existsSync(file) && existsSync(metaFile)) return { file, ...JSON.parse(readFileSync(metaFile, 'utf8')), cached: true };
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  log(`building workspace of ${size} tasks…`);
  const out = execFileSync(process.execPath, [join(here, 'build-workspace.js'), String(size), file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 });
  const meta = { ...JSON.parse(out.trim().split('\n').pop()), bytes: statSync(file).size };
  writeFileSync(metaFile, JSON.stringify(meta));
  return { file, ...meta, cached: false };
}

/** A private writable copy of the cached workspace, in `<tmp>/.cairn/cairn.db`; `cleanup()` removes it. */
export function freshWorkspace(size, opts) {
  const src = cachedWorkspace(size, opts);
  const dir = mkdtempSync(join(tmpdir(), `cairn-bench-${size}-`));
  const db = join(dir, '.cairn', 'cairn.db');
  mkdirSync(dirname(db), { recursive: true });
  copyFileSync(src.file, db);
  // Flushed before anything is timed: otherwise the kernel writes the fresh 300 MB copy back while
  // the writes are measured, and every fsync a checkpoint makes waits behind it (p99s of 10 ms that
  // a workspace in use never sees).
  const fd = openSync(db, 'r+');
  fsyncSync(fd);
  closeSync(fd);
  return { ...src, dir, db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Removes cached workspaces built from older schemas or generators. */
export function pruneCache() {
  if (!existsSync(CACHE_DIR)) return;
  const key = cacheKey();
  for (const f of readdirSync(CACHE_DIR)) if (f.startsWith('ws-') && !f.includes(key)) rmSync(join(CACHE_DIR, f), { force: true });
}
