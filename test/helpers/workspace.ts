/**
 * Test workspaces: a fresh temporary directory per test, and a real database in it: a SQLite file,
 * or on the PostgreSQL leg a schema of its own on the run's server (helpers/engine.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onPostgres, pgWorkspaceUrl } from './engine.js';
import { openCairn, type Cairn, type OpenCairnOptions, type Store } from '../../src/index.js';
import { LinkedStore } from '../../src/links/index.js';
import type { SqliteStore } from '../../src/store/sqlite/store.js';

/** The SQLite store under a workspace's links (openStore wraps every SQLite workspace in a LinkedStore). */
export function sqliteOf(store: Store): SqliteStore {
  return (store instanceof LinkedStore ? store.inner : store) as SqliteStore;
}

export interface TempWorkspace {
  dir: string;
  /** The workspace's database: a file path, or a postgres:// URL on the PostgreSQL leg. */
  db: string;
  cleanup(): void;
}

export function tempWorkspace(prefix = 'cairn-test-'): TempWorkspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = onPostgres ? pgWorkspaceUrl() : join(dir, '.cairn', 'cairn.db');
  return { dir, db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A Cairn over a fresh workspace file; call `done()` to close and delete it. */
export function tempCairn(opts: OpenCairnOptions = {}): Cairn & { ws: TempWorkspace; done(): Promise<void> } {
  const ws = tempWorkspace();
  const cairn = openCairn({ db: ws.db, actor: 'tester', ...opts });
  return Object.assign(cairn, {
    ws,
    async done() {
      await cairn.close();
      ws.cleanup();
    },
  });
}
