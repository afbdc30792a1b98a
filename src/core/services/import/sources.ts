/** Dispatches a source name to its reader (each in its own file), all producing ImportItems. */
import type { ForeignSqlite, ImportItem, ProgressFn, SourceName } from './model.js';

export type { ForeignSqlite };
import { readBacklog } from './backlog.js';
import { readBeads } from './beads.js';
import { readCastle } from './castle.js';
import { readDevPlanner } from './devplanner.js';
import { readTaskMaster } from './taskmaster.js';

export interface ReaderOptions {
  openSqlite?: (file: string) => ForeignSqlite;
  /** The target project key, when the caller named one. */
  project?: string;
  progress?: ProgressFn;
}

export function readSources(source: Exclude<SourceName, 'cairn'>, path: string, opts: ReaderOptions): AsyncIterable<ImportItem> {
  switch (source) {
    case 'castle':
      return readCastle(path, opts.openSqlite, opts.project);
    case 'beads':
      return readBeads(path, opts.project, opts.progress);
    case 'devplanner':
      return readDevPlanner(path, opts.project);
    case 'taskmaster':
      return readTaskMaster(path, opts.project);
    case 'backlog':
      return readBacklog(path, opts.project);
  }
}
