/** Opens another application's SQLite file read-only for an importer (Castle's castle.db): an entry point, so the CLI need not import the store. */
import type { ForeignSqlite } from './core/services/import/index.js';
import { Database } from './store/sqlite/native.js';

export function openForeignSqlite(file: string): ForeignSqlite {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  return {
    all: (sql) => db.prepare(sql).all() as Array<Record<string, unknown>>,
    columns: (table) => (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<{ name: string }>).map((r) => r.name),
    close: () => db.close(),
  };
}
