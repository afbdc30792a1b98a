/**
 * Other applications' SQLite files, for importers and links (Castle's castle.db): an entry point,
 * so the CLI, the importers and the links need not import the store.
 */
import type { ForeignSqlite } from './core/services/import/index.js';
import type { ForeignDb, SqliteAccess } from './links/index.js';
import { Database } from './store/sqlite/native.js';

export function openForeignSqlite(file: string): ForeignSqlite {
  return foreign(new Database(file, { readonly: true, fileMustExist: true }));
}

function foreign(db: InstanceType<typeof Database>): ForeignDb {
  return {
    all: (sql) => db.prepare(sql).all() as Array<Record<string, unknown>>,
    columns: (table) => (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<{ name: string }>).map((r) => r.name),
    run: (sql, params = []) => void db.prepare(sql).run(...(params as unknown[])),
    transaction: (fn) => db.transaction(fn)(),
    close: () => db.close(),
  };
}

/** What the links get: a file's bytes opened in memory (a consistent copy), or the file to write. */
export const sqliteAccess: SqliteAccess = {
  fromBuffer(image) {
    // A copy must say "rollback journal" in its header (bytes 18-19) to be readable from memory.
    const bytes = Buffer.from(image);
    if (bytes.length >= 20) bytes[18] = bytes[19] = 1;
    return foreign(new Database(bytes, { readonly: true }));
  },
  openFile(path) {
    const db = new Database(path, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return foreign(db);
  },
};
