/** Opens a SQLite workspace file: pragmas, a backup copy before any migration, then migrations in one transaction. */
import { Database, type SqliteDatabase } from './native.js';
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { CairnError, toCairnError } from '../../core/errors.js';
import { LATEST_SQLITE_VERSION, SQLITE_MIGRATIONS } from '../migrations/sqlite.js';
import { readOnlyError, readOnlyReason, translateSqliteError } from './sqlite-errors.js';

/** PRAGMA application_id of every Cairn workspace ("CRN1"): what tells Cairn's files from any other SQLite file. */
export const CAIRN_APPLICATION_ID = 0x43524e31;

/**
 * Page size of a new workspace file. Each commit appends every page it changed to the WAL, and a
 * task write changes one page in each of some 20–30 b-trees (the task row, its indexes, labels, the
 * event, the search index), so the bytes a write costs follow the page size. At 2 KiB a create or
 * update appends a little over half of what it appends at 4 KiB, and commits copy less. 1 KiB pages
 * would halve it again, but they make updates that reindex a task's text, and bulk imports,
 * markedly slower (docs/decisions.md, "Write volume"). Files made with larger pages keep them:
 * changing it rewrites the whole file (VACUUM), which needs every other connection gone.
 */
export const NEW_FILE_PAGE_SIZE = 2048;

export interface OpenOptions {
  /** Apply migrations only up to this version (tests build files at earlier schema versions). */
  targetVersion?: number;
  /** Milliseconds to wait for another process's write lock before giving up. */
  busyTimeoutMs?: number;
  /** Told when a write finds the write lock held by another process and starts waiting for it. */
  onLockWait?: () => void;
  /** Told when opening migrated the file: the version it had, and the copy made first (none for a new file). */
  onMigrated?: (from: number, backup: string | null) => void;
}

export function applyPragmas(db: SqliteDatabase, busyTimeoutMs = 10_000): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  if (db.name !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  // 8 MB of page cache per connection: the hot pages (index interiors, the ready and open-list
  // indexes, the FTS structure) fit, and the OS page cache serves the rest. A larger cache would push
  // a large workspace's process past its RSS budget without making it measurably faster.
  db.pragma('cache_size = -8000');
  // A server's WAL grows during a long burst of writes (checkpointer.ts) and is reused from the
  // start afterwards. Truncating it at each restart would make every write of the next burst extend
  // the file, which slows creates measurably, so only a log past 64 MB (twice what the checkpointer
  // lets a steady stream reach) is cut back.
  db.pragma('journal_size_limit = 67108864');
}

export function schemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** The schema version of a file, opened read-only for the moment it takes (nothing is migrated or created). */
export function readSchemaVersion(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return schemaVersion(db);
  } finally {
    db.close();
  }
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
    throw new CairnError('VALIDATION_ERROR', `The workspace ${file ?? ''} has schema version ${current}, newer than this Cairn understands (${LATEST_SQLITE_VERSION}). Upgrade Cairn to open it.`, {
      suggestions: ['npm install -g cairn-tasks@latest'],
    });
  }
  if (current >= target) {
    markWorkspace(db);
    return null;
  }
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
    if (applicationId(db) !== CAIRN_APPLICATION_ID) db.pragma(`application_id = ${CAIRN_APPLICATION_ID}`);
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

function applicationId(db: SqliteDatabase): number {
  return db.pragma('application_id', { simple: true }) as number;
}

/** An up-to-date workspace made before the mark gets it now; a busy lock just leaves it for the next open. */
function markWorkspace(db: SqliteDatabase): void {
  if (db.readonly || applicationId(db) === CAIRN_APPLICATION_ID) return;
  // Without waiting: another process holding the write lock must not stall this open.
  const wait = db.pragma('busy_timeout', { simple: true }) as number;
  try {
    db.pragma('busy_timeout = 0');
    db.pragma(`application_id = ${CAIRN_APPLICATION_ID}`);
  } catch (err) {
    if (!String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err;
  } finally {
    db.pragma(`busy_timeout = ${wait}`);
  }
}

/** The last schema version Cairn wrote without its mark: every later Cairn marks the files it makes. */
const LAST_UNMARKED_VERSION = 15;

/** Each table and its columns, as `table(col,col,…)` lines: a schema compared exactly, not by table names. */
function schemaShape(db: SqliteDatabase): string {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  return tables.map((t) => `${t}(${(db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(t) as string[]).join(',')})`).join('\n');
}

const shapes = new Map<number, string>();

/** The schema Cairn's migrations make at `version`, built once in memory. */
function cairnShape(version: number): string {
  let shape = shapes.get(version);
  if (shape === undefined) {
    const mem = new Database(':memory:');
    try {
      migrate(mem, null, version);
      shapes.set(version, (shape = schemaShape(mem)));
    } finally {
      mem.close();
    }
  }
  return shape;
}

/**
 * A workspace an older Cairn made before it marked its files: a schema version Cairn wrote unmarked,
 * and exactly the tables and columns that version has. Table names alone (another app's `tasks`,
 * `projects` and `events`) are not enough: such a file would be migrated and switched to WAL.
 */
function isUnmarkedWorkspace(db: SqliteDatabase): boolean {
  const version = schemaVersion(db);
  return version >= 1 && version <= LAST_UNMARKED_VERSION && schemaShape(db) === cairnShape(version);
}
const SQLITE_HEADER = 'SQLite format 3\0';

/** A missing or 0-byte file is no workspace yet: reads answer from an empty schema and leave it as it is. */
export function hasDatabaseFile(file: string): boolean {
  try {
    const st = statSync(file);
    return st.isDirectory() || st.size > 0;
  } catch {
    return false;
  }
}

function notAWorkspace(file: string, why: string): CairnError {
  return new CairnError('NOT_A_WORKSPACE', `${file} is not a Cairn workspace: ${why}. Cairn left it untouched.`, {
    suggestions: ['Check --db and CAIRN_DB: they must name a Cairn workspace (usually .cairn/cairn.db in a project folder)', 'Run "cairn init" in your project folder to create a workspace there'],
  });
}

/**
 * Whether a file is a Cairn workspace, without opening it for writing: a SQLite file marked with
 * Cairn's application_id, or an unmarked one with a pre-mark Cairn schema (isUnmarkedWorkspace). Profiles
 * use it to tell their host's own database (Castle's castle.db, linked) from a workspace.
 */
export function isCairnFile(file: string): boolean {
  let head: Buffer;
  try {
    const fd = openSync(file, 'r');
    head = Buffer.alloc(100);
    try {
      if (readSync(fd, head, 0, 100, 0) < 100) return false;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  if (head.toString('latin1', 0, 16) !== SQLITE_HEADER) return false;
  const id = head.readUInt32BE(68);
  if (id !== 0) return id === CAIRN_APPLICATION_ID;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      // The header on disk may not carry the mark yet: a new workspace's first commit can still be in its WAL.
      return applicationId(db) === CAIRN_APPLICATION_ID || isUnmarkedWorkspace(db);
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Refuses a non-empty file that does not start with SQLite's header, before SQLite sees it. */
export function assertSqliteHeader(file: string): void {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(16);
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== SQLITE_HEADER) {
    throw notAWorkspace(file, "it is not a SQLite database (its first bytes are not SQLite's header); if it was a workspace, it is damaged: restore it from a backup");
  }
}

/**
 * Cairn's files carry PRAGMA application_id = CAIRN_APPLICATION_ID. A file without it is accepted
 * only when it is empty (a new file) or has exactly the schema of a Cairn version from before the
 * mark (which migrate() then marks); anything else is another application's and is refused before
 * any write, the journal mode included.
 */
export function assertCairnFile(db: SqliteDatabase, file: string): void {
  const id = applicationId(db);
  if (id === CAIRN_APPLICATION_ID) return;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  const version = schemaVersion(db);
  if (id === 0) {
    if (tables.length === 0 && version === 0) return;
    if (isUnmarkedWorkspace(db)) return;
  }
  const shown = tables.length > 6 ? `${tables.slice(0, 6).join(', ')}, …` : tables.join(', ');
  throw notAWorkspace(file, `it is a SQLite database of another application (application_id ${id}, user_version ${version}${tables.length ? `, tables ${shown}` : ''})`);
}

/** The file, and its folder (SQLite creates the -wal and -shm files there) unless both already exist writable. */
function canWrite(file: string): boolean {
  return isWritable(file) && (isWritable(dirname(file)) || (isWritable(`${file}-wal`) && isWritable(`${file}-shm`)));
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A workspace this process cannot write (file, folder or mount read-only) opens read-only and is
 * never migrated. Reading a WAL file needs its -shm index, which SQLite cannot create in a
 * read-only folder: then the reads are answered from a copy of the file in memory.
 */
function openReadOnly(file: string, opts: OpenOptions): SqliteDatabase {
  let db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 10_000}`);
    try {
      assertCairnFile(db, file);
    } catch (err) {
      const code = String((err as { code?: unknown }).code);
      if (!code.startsWith('SQLITE_READONLY') && !code.startsWith('SQLITE_CANTOPEN')) throw err;
      db.close();
      db = inMemoryCopy(file);
      assertCairnFile(db, file);
    }
    const version = schemaVersion(db);
    if (version > LATEST_SQLITE_VERSION) migrate(db, file); // throws: newer than this Cairn
    if (version < (opts.targetVersion ?? LATEST_SQLITE_VERSION)) {
      throw readOnlyError(file, `it has schema version ${version} and this Cairn needs ${LATEST_SQLITE_VERSION}; upgrading it writes to the file, and ${readOnlyReason(file)}`);
    }
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** A read-only copy in memory of a WAL file whose folder is read-only; refused when its log holds commits. */
export function inMemoryCopy(file: string): SqliteDatabase {
  let wal = 0;
  try {
    wal = statSync(`${file}-wal`).size;
  } catch {
    // no log: the file holds every commit
  }
  if (wal > 0) throw readOnlyError(file, `${readOnlyReason(file)}, and its log ${file}-wal holds commits that SQLite can read only with write access to that folder`);
  const bytes = readFileSync(file);
  // Header bytes 18–19 say "WAL"; a deserialized copy must say "rollback journal" to be readable.
  if (bytes.length >= 20) bytes[18] = bytes[19] = 1;
  return new Database(bytes, { readonly: true });
}

/** Opens (creating if needed) a workspace database file and migrates it; refuses files that are not Cairn's. */
export function openSqliteFile(file: string, opts: OpenOptions = {}): SqliteDatabase {
  try {
    return openChecked(file, opts);
  } catch (err) {
    throw translateSqliteError(err, file) ?? toCairnError(err);
  }
}

function openChecked(file: string, opts: OpenOptions): SqliteDatabase {
  const existing = file !== ':memory:' && hasDatabaseFile(file);
  if (file !== ':memory:') {
    if (existsSync(file) && statSync(file).isDirectory()) {
      throw new CairnError('VALIDATION_ERROR', `The database path ${file} is a directory; pass the path of a file such as ${file}/cairn.db.`);
    }
    if (existing) assertSqliteHeader(file);
    if (existing && !canWrite(file)) return openReadOnly(file, opts);
    const dir = dirname(file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  }
  const db = openDatabase(file);
  try {
    // Only a file with nothing in it yet takes it (SQLite ignores it otherwise); WAL mode fixes it.
    if (!existing) db.pragma(`page_size = ${NEW_FILE_PAGE_SIZE}`);
    // Nothing is written (not even the journal mode) before the file is known to be Cairn's.
    db.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 10_000}`);
    withBusyRetry(() => assertCairnFile(db, file), opts.busyTimeoutMs ?? 10_000);
    withBusyRetry(() => applyPragmas(db, opts.busyTimeoutMs), opts.busyTimeoutMs ?? 10_000);
    const from = schemaVersion(db);
    const backup = migrate(db, file === ':memory:' ? null : file, opts.targetVersion);
    if (schemaVersion(db) !== from) opts.onMigrated?.(from, backup);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
