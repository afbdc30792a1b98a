/** Dispatches a source name to its reader (each in its own file), all producing ImportItems. */
import { CairnError } from '../../errors.js';
import type { ImportItem, SourceName } from './model.js';

/** Read-only access to another application's SQLite file (Castle's castle.db), provided by the entry point. */
export interface ForeignSqlite {
  /** Rows of a query; a missing table or column is an error the reader reports. */
  all(sql: string): Array<Record<string, unknown>>;
  /** Column names of a table (empty when the table does not exist). */
  columns(table: string): string[];
  close(): void;
}

export interface ReaderOptions {
  openSqlite?: (file: string) => ForeignSqlite;
  /** The target project key, when the caller named one. */
  project?: string;
}

export function readSources(source: Exclude<SourceName, 'cairn'>, path: string, opts: ReaderOptions): AsyncIterable<ImportItem> {
  void path;
  void opts;
  throw new CairnError('VALIDATION_ERROR', `Importing from ${source} is not available yet. Nothing was imported.`);
}
