/** Finding and opening a workspace: --db PATH or URL, then CAIRN_DB, then the nearest ancestor `.cairn/cairn.db`. */
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import type { Store } from './core/ports.js';
import { SqliteStore } from './store/sqlite/store.js';
import { isPostgresUrl, redact } from './store/postgres/url.js';

export const WORKSPACE_DIR = '.cairn';
export const DB_FILE = 'cairn.db';

export interface WorkspaceLocation {
  path: string;
  /** How it was found; `default` means nothing was found and `path` is where `init` would put it. */
  source: 'flag' | 'env' | 'ancestor' | 'default';
}

/** Resolves where the workspace database lives, without creating anything. */
export function findWorkspace(opts: { db?: string | undefined; cwd?: string; env?: NodeJS.ProcessEnv; profileEnv?: string } = {}): WorkspaceLocation {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const env = opts.env ?? process.env;
  if (opts.db) return { path: isPostgresUrl(opts.db) ? opts.db : resolve(cwd, opts.db), source: 'flag' };
  // A profile's own variable (TX_DB, CASTLE_DB_PATH, …) is what that seed's hosts set: it names this server's workspace.
  const fromProfile = opts.profileEnv ? env[opts.profileEnv] : undefined;
  if (fromProfile) return { path: isPostgresUrl(fromProfile) ? fromProfile : databaseAt(resolve(cwd, fromProfile)), source: 'env' };
  if (env.CAIRN_DB) return { path: isPostgresUrl(env.CAIRN_DB) ? env.CAIRN_DB : resolve(cwd, env.CAIRN_DB), source: 'env' };
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, WORKSPACE_DIR);
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return { path: join(candidate, DB_FILE), source: 'ancestor' };
    if (dirname(dir) === dir) break;
  }
  return { path: join(cwd, WORKSPACE_DIR, DB_FILE), source: 'default' };
}

/**
 * A database path, or a folder (a repository, a DevPlanner workspace) whose `.cairn/cairn.db` is
 * meant: an existing directory, or a path not there yet with no file extension.
 */
function databaseAt(path: string): string {
  const folder = existsSync(path) ? statSync(path).isDirectory() : extname(path) === '';
  return folder ? join(path, WORKSPACE_DIR, DB_FILE) : path;
}

/** Opens the store at a path (a missing file is created by the first write, never by a read) or a postgres:// URL. */
export function openStore(path: string): Store {
  return isPostgresUrl(path) ? postgresStore(path) : new SqliteStore(path);
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
    onCommit(listener) {
      let off: (() => void) | undefined;
      let stopped = false;
      void ready.then((s) => {
        if (!stopped) off = s.onCommit(listener);
      }, () => undefined);
      return () => {
        stopped = true;
        off?.();
      };
    },
    // A store that never opened (a bad URL) has nothing to close.
    close: () => ready.then((s) => s.close(), () => undefined),
  };
}

export { isPostgresUrl, redact };

/** `cairn db copy`: the workspace at `from` into the empty one at `to` (store/copy.ts, loaded only for it). */
export async function copyWorkspace(from: string, to: string, onProgress?: (table: string, rows: number) => void) {
  return (await import('./store/copy.js')).copyWorkspace(from, to, onProgress);
}

export { diagnoseWorkspace, type DoctorReport } from './store/sqlite/doctor.js';
