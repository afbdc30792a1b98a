/**
 * Linked sources (docs/links.md): the entry points wrap a workspace's store with `linkStore`, giving
 * it the SQLite access Castle's database needs (the store layer's driver, which links may not import).
 */
import type { LinkKind } from '../core/link-port.js';
import type { Store } from '../core/ports.js';
import { LinkedStore, type LinkConfig } from './linked-store.js';
import { CastleSource, type SqliteAccess } from './sources/castle.js';
import { BacklogSource } from './sources/backlog.js';
import { BeadsSource } from './sources/beads.js';
import { DevPlannerSource } from './sources/devplanner.js';
import { TaskMasterSource } from './sources/taskmaster.js';
import type { LinkSource } from './source.js';

export { LinkedStore } from './linked-store.js';
export type { ForeignDb, SqliteAccess } from './sources/castle.js';

export interface LinkStoreOptions {
  sqlite: SqliteAccess;
  auto?: LinkConfig['auto'];
  watch?: boolean;
  onWarning?(message: string): void;
}

/** The source of a link of this kind at this path. */
export function openSource(kind: LinkKind, path: string, sqlite: SqliteAccess): LinkSource {
  switch (kind) {
    case 'devplanner':
      return new DevPlannerSource(path);
    case 'castle':
      return new CastleSource(path, sqlite);
    case 'taskmaster':
      return new TaskMasterSource(path);
    case 'backlog':
      return new BacklogSource(path);
    case 'beads':
      return new BeadsSource(path);
  }
}

export function linkStore(inner: Store, opts: LinkStoreOptions): LinkedStore {
  return new LinkedStore(inner, {
    open: (kind, path) => openSource(kind, path, opts.sqlite),
    ...(opts.auto ? { auto: opts.auto } : {}),
    watch: opts.watch ?? false,
    ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
  });
}
