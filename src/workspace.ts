/** Finding and opening a workspace: --db PATH or URL, then CAIRN_DB, then the nearest ancestor `.cairn/cairn.db`. */
// The profiles' workflow templates, registered before any op runs (create_project and import name them).
import './profiles/templates.js';
import { closeSync, existsSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { LinkKind } from './core/link-port.js';
import type { Store } from './core/ports.js';
import { sqliteAccess } from './foreign-sqlite.js';
import { linkStore } from './links/index.js';
import { mainCheckoutOf } from './core/services/git-facts.js';
import { isCairnFile } from './store/sqlite/open.js';
import { SqliteStore } from './store/sqlite/store.js';
import { isPostgresUrl, redact } from './store/postgres/url.js';
import { diagnoseWorkspace as diagnoseFile, type DoctorReport } from './store/sqlite/doctor.js';

export const WORKSPACE_DIR = '.cairn';
export const DB_FILE = 'cairn.db';

export interface WorkspaceLocation {
  path: string;
  /** How it was found; `default` means nothing was found and `path` is where `init` would put it. */
  source: 'flag' | 'env' | 'ancestor' | 'default';
  /**
   * The host's own store a profile's variable named (Castle's castle.db, a DevPlanner workspace):
   * served in place through a link, with Cairn's own data in the workspace at `path` beside it.
   */
  link?: { kind: LinkKind; path: string };
}

/** Resolves where the workspace database lives, without creating anything. */
export function findWorkspace(opts: { db?: string | undefined; cwd?: string; env?: NodeJS.ProcessEnv; profileEnv?: string; profileLink?: LinkKind } = {}): WorkspaceLocation {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const env = opts.env ?? process.env;
  if (opts.db) return { path: isPostgresUrl(opts.db) ? opts.db : resolve(cwd, opts.db), source: 'flag' };
  // A profile's own variable (TX_DB, CASTLE_DB_PATH, …) is what that seed's hosts set: it names this
  // server's workspace, or the host's own store, which is then served in place (linkedAt).
  const fromProfile = opts.profileEnv ? env[opts.profileEnv] : undefined;
  if (fromProfile) {
    if (isPostgresUrl(fromProfile)) return { path: fromProfile, source: 'env' };
    const target = resolve(cwd, fromProfile);
    return (opts.profileLink && linkedAt(opts.profileLink, target)) || { path: databaseAt(target), source: 'env' };
  }
  if (env.CAIRN_DB) return { path: isPostgresUrl(env.CAIRN_DB) ? env.CAIRN_DB : resolve(cwd, env.CAIRN_DB), source: 'env' };
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, WORKSPACE_DIR);
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return { path: join(candidate, DB_FILE), source: 'ancestor' };
    // A linked worktree (`git worktree add`) shares its repository's workspace: one set of tasks,
    // one key sequence and one outbox for every worktree. Its own folder holds no `.cairn/`, which
    // git does not check out; the main checkout's is found through the git common directory.
    if (isFile(join(dir, '.git'))) {
      const main = mainCheckoutOf(dir);
      if (main) return { path: join(main, WORKSPACE_DIR, DB_FILE), source: existsSync(join(main, WORKSPACE_DIR)) ? 'ancestor' : 'default' };
    }
    if (dirname(dir) === dir) break;
  }
  return { path: join(cwd, WORKSPACE_DIR, DB_FILE), source: 'default' };
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * A database path, or a folder (a repository, a DevPlanner workspace) whose `.cairn/cairn.db` is
 * meant: an existing directory, or a path not there yet with no file extension.
 */
function databaseAt(path: string): string {
  const folder = existsSync(path) ? statSync(path).isDirectory() : extname(path) === '';
  return folder ? join(path, WORKSPACE_DIR, DB_FILE) : path;
}

/** The real path when it exists (links are keyed by it), else the path as given. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * A profile's variable naming the host's own store rather than a Cairn workspace: Castle's database
 * (a SQLite file that is not Cairn's, or none yet: Castle makes it) or a DevPlanner workspace
 * (project folders, or none yet). A Cairn workspace named there keeps being used as it is.
 */
function linkedAt(kind: LinkKind, target: string): WorkspaceLocation | undefined {
  if (kind === 'castle') {
    const file = existsSync(target) && statSync(target).isDirectory() ? join(target, 'castle.db') : target;
    if (extname(file) === '' || isCairnFile(file)) return undefined;
    // A path not there yet and named as Cairn names workspaces is a Cairn workspace: its first write creates it.
    if (!existsSync(file) && (basename(file) === DB_FILE || basename(dirname(file)) === WORKSPACE_DIR)) return undefined;
    if (existsSync(file) && statSync(file).size > 0 && !isSqlite(file)) return undefined;
    const source = real(file);
    return { path: join(dirname(source), WORKSPACE_DIR, DB_FILE), source: 'env', link: { kind, path: source } };
  }
  if (kind === 'devplanner') {
    const hasProjects = existsSync(join(target, '_project.json')) || (existsSync(target) && readdirSync(target).some((d) => !d.startsWith('.') && existsSync(join(target, d, '_project.json'))));
    // A folder that holds only a Cairn workspace (made by an earlier Cairn for this profile) stays one.
    if (!hasProjects && existsSync(join(target, WORKSPACE_DIR, DB_FILE))) return undefined;
    if (existsSync(target) && !statSync(target).isDirectory()) return undefined;
    const source = real(target);
    return { path: join(source, WORKSPACE_DIR, DB_FILE), source: 'env', link: { kind, path: source } };
  }
  return undefined;
}

function isSqlite(file: string): boolean {
  try {
    const fd = openSync(file, 'r');
    try {
      const head = Buffer.alloc(16);
      return readSync(fd, head, 0, 16, 0) === 16 && head.toString('latin1') === 'SQLite format 3\u0000';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

export interface OpenStoreOptions {
  /** A host's own store to serve in place (WorkspaceLocation.link). */
  link?: WorkspaceLocation['link'];
  /** Watch linked folders for changes (long-lived servers); a command scans them instead. */
  watch?: boolean;
  onWarning?(message: string): void;
  /** Told when a write starts waiting for another process's write lock (a long-lived server says so in its log). */
  onLockWait?(): void;
}

/**
 * Opens the store at a path (a missing file is created by the first write, never by a read) or a
 * postgres:// URL. A SQLite workspace syncs its linked sources on every call (docs/links.md).
 */
export function openStore(path: string, opts: OpenStoreOptions = {}): Store {
  if (isPostgresUrl(path)) return postgresStore(path);
  return linkStore(new SqliteStore(path, opts.onLockWait ? { onLockWait: opts.onLockWait } : {}), {
    sqlite: sqliteAccess,
    ...(opts.link ? { auto: [{ ...opts.link, writable: opts.link.kind !== 'castle' }] } : {}),
    watch: opts.watch ?? false,
    onWarning: opts.onWarning ?? ((m) => process.stderr.write(`cairn: ${m}\n`)),
  });
}

/**
 * Subscribes on a store that is still loading: `subscribe` runs once it is ready, unless the
 * returned unsubscribe came first. A store that fails to load has nothing to unsubscribe from.
 */
function once<S>(ready: Promise<S>, subscribe: (s: S) => (() => void) | undefined): () => void {
  let off: (() => void) | undefined;
  let stopped = false;
  void ready.then(
    (s) => {
      if (!stopped) off = subscribe(s);
    },
    () => undefined,
  );
  return () => {
    stopped = true;
    off?.();
  };
}

/**
 * The PostgreSQL store, loaded on first use: the driver stays out of the start-up of every
 * command that opens a SQLite workspace (most of them).
 */
function postgresStore(url: string): Store {
  const ready = import('./store/postgres/store.js').then((m) => new m.PostgresStore(url));
  const get = () => ready;
  return {
    location: redact(url),
    read: async (fn) => (await get()).read(fn),
    write: async (fn) => (await get()).write(fn),
    changeToken: async () => (await get()).changeToken(),
    projectsToken: async () => (await get()).projectsToken(),
    status: async () => (await get()).status(),
    observePoolWaits: (listener) => once(ready, (s) => s.observePoolWaits(listener)),
    onCommit: (listener) => once(ready, (s) => s.onCommit(listener)),
    // A store that never opened (a bad URL) has nothing to close.
    close: () =>
      ready.then(
        (s) => s.close(),
        () => undefined,
      ),
  };
}

export { hasPassword, isPostgresUrl, redact, withoutPassword } from './store/postgres/url.js';

/** `cairn db copy`: the workspace at `from` into the empty one at `to` (store/copy.ts, loaded only for it). */
export async function copyWorkspace(from: string, to: string, onProgress?: (table: string, rows: number) => void) {
  return (await import('./store/copy.js')).copyWorkspace(from, to, onProgress);
}

export type { DoctorReport } from './store/sqlite/doctor.js';
export type { SchemaReport } from './store/schema-admin.js';

/** `cairn db status`: the schema a workspace holds and whether this Cairn can open it (store/schema-admin.ts, loaded only for it). */
export async function schemaStatus(path: string) {
  return (await import('./store/schema-admin.js')).schemaStatus(path);
}

/** `cairn db migrate [--dry-run]`: the pending migrations, applied or listed. */
export async function migrateSchema(path: string, dryRun: boolean) {
  return (await import('./store/schema-admin.js')).migrateSchema(path, dryRun);
}

/** `cairn doctor`: a workspace file (store/sqlite/doctor.ts) or a PostgreSQL workspace (store/postgres/doctor.ts, loaded only for it). */
export async function diagnoseWorkspace(location: string): Promise<DoctorReport> {
  if (isPostgresUrl(location)) return (await import('./store/postgres/doctor.js')).diagnosePostgres(location);
  return diagnoseFile(location);
}
