/** Opens a SQLite workspace file: pragmas, a backup copy before any migration, then migrations in one transaction. */
import { Database, type SqliteDatabase } from './native.js';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { CairnError } from '../../core/errors.js';
import { LATEST_SQLITE_VERSION, SQLITE_MIGRATIONS } from '../migrations/sqlite.js';

export interface OpenOptions {
  /** Apply migrations only up to this version (tests build files at earlier schema versions). */
  targetVersion?: number;
  /** Milliseconds to wait for another process's write lock before giving up. */
  busyTimeoutMs?: number;
}

export function applyPragmas(db: SqliteDatabase, busyTimeoutMs = 10_000): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  if (db.name !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  // 8 MB of page cache per connection: the hot pages (index interiors, the ready and open-list
  // indexes, the FTS structure) fit, and the OS page cache serves the rest. At 32 MB a 100k-task
  // workspace pushed the process past its 150 MB RSS budget for no measurable speed-up.
  db.pragma('cache_size = -8000');
  // A server's WAL grows to ~64–90 MB during a long burst of writes (checkpointer.ts) and is reused
  // from the start afterwards. Truncating it at each restart made every write of the next burst
  // extend the file (create p50 0.47 → 0.55 ms), so only a log past 128 MB is cut back.
  db.pragma('journal_size_limit = 134217728');
}

export function schemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Copies the database to `<file>.bak-v<from>-<stamp>` with VACUUM INTO (a consistent snapshot even under WAL). */
function backup(db: SqliteDatabase, file: string, from: number): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.bak-v${from}-${stamp}`;
  db.prepare('VACUUM INTO ?').run(target);
  return target;
}

/** Brings the schema to `target`, all migrations in one IMMEDIATE transaction; returns the backup path if one was made. */
export function migrate(db: SqliteDatabase, file: string | null, target = LATEST_SQLITE_VERSION): string | null {
  const current = schemaVersion(db);
  if (current > LATEST_SQLITE_VERSION) {
    throw new CairnError(
      'VALIDATION_ERROR',
      `The workspace ${file ?? ''} has schema version ${current}, newer than this Cairn understands (${LATEST_SQLITE_VERSION}). Upgrade Cairn to open it.`,
      { suggestions: ['npm install -g cairn@latest'] },
    );
  }
  if (current >= target) return null;
  const backupPath = file && current > 0 ? backup(db, file, current) : null;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process may have migrated while we waited for the lock.
    const now = schemaVersion(db);
    for (const m of SQLITE_MIGRATIONS) {
      if (m.version <= now || m.version > target) continue;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    // The file is as it was: a copy of it per failed attempt would only pile up.
    if (backupPath) rmSync(backupPath, { force: true });
    throw err;
  }
  return backupPath;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Processes that all create the workspace at once can meet SQLITE_BUSY while one of them switches
 * the new file to WAL, sometimes at once rather than after the busy timeout: wait a little and
 * retry, for no longer than the busy timeout in all, rather than fail the first write.
 */
function withBusyRetry(fn: () => void, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (!code.startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw err;
      Atomics.wait(pause, 0, 0, 5 + Math.random() * 15);
    }
  }
}

/**
 * better-sqlite3 loads its native module with the first connection. Built for another Node.js (a
 * Node upgrade, nvm, a node_modules copied between machines), it fails there: say how to fix that
 * rather than report a bug in Cairn. Anything else is returned undefined.
 */
export function nativeLoadError(err: unknown): CairnError | undefined {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_DLOPEN_FAILED' && !/NODE_MODULE_VERSION|compiled against a different Node\.js|invalid ELF header|Could not locate the bindings file/.test(message)) return undefined;
  return new CairnError(
    'INTERNAL',
    `The SQLite driver (better-sqlite3) cannot load on this Node.js (${process.version}): its native module was built for another Node.js version or platform. Nothing was changed.`,
    { cause: err, suggestions: ['Run "npm rebuild" (or "npm ci") in the Cairn directory with the Node.js you use, then retry'] },
  );
}

function openDatabase(file: string): SqliteDatabase {
  try {
    return new Database(file);
  } catch (err) {
    throw nativeLoadError(err) ?? err;
  }
}

/** Opens (creating if needed) a workspace database file and migrates it. */
export function openSqliteFile(file: string, opts: OpenOptions = {}): SqliteDatabase {
  if (file !== ':memory:') {
    const dir = dirname(file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    if (existsSync(file) && statSync(file).isDirectory()) {
      throw new CairnError('VALIDATION_ERROR', `The database path ${file} is a directory; pass the path of a file such as ${file}/cairn.db.`);
    }
  }
  const db = openDatabase(file);
  try {
    withBusyRetry(() => applyPragmas(db, opts.busyTimeoutMs), opts.busyTimeoutMs ?? 10_000);
    migrate(db, file === ':memory:' ? null : file, opts.targetVersion);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
