/** Dispatches a source name to its reader (each in its own file), all producing ImportItems. */
import type { ImportItem, ProgressFn, SourceName } from './model.js';
import { readBacklog } from './backlog.js';
import { readBeads } from './beads.js';
import { readCastle } from './castle.js';
import { readDevPlanner } from './devplanner.js';
import { readTaskMaster } from './taskmaster.js';

/** Read-only access to another application's SQLite file (Castle's castle.db), provided by the entry point. */
export interface ForeignSqlite {
  /** Rows of a query. */
  all(sql: string): Array<Record<string, unknown>>;
  /** Column names of a table (empty when the table does not exist). */
  columns(table: string): string[];
  close(): void;
}

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
