/**
 * Multi-row INSERTs for bulk writes (imports): many rows per statement, so the per-statement cost
 * (the binding's call, SQLite's statement journal of every page the statement touches) is paid
 * once per chunk instead of once per row. Engine-neutral: plain INSERT … VALUES (…), (…).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import { prepared, slotRow } from './prepared.js';

type Q = Kysely<DB>;

/** Bind parameters one statement may carry: SQLite's limit (SQLITE_MAX_VARIABLE_NUMBER); PostgreSQL allows more. */
const MAX_PARAMS = 32766;
/** Rows per statement at most: longer statements save nothing more. */
const MAX_ROWS = 256;

/**
 * An INSERT of rows of `columns` into `table`, run as chunks of at most MAX_ROWS rows. A short last
 * chunk is split into powers of two, so each table compiles a handful of statement shapes.
 * `ignoreExisting`: rows whose key is already stored are skipped (ON CONFLICT DO NOTHING).
 *
 * @example
 * const insertLabels = manyRows('task_labels', ['task_uid', 'label']);
 * await insertLabels(db, [[uid, 'ui'], [uid, 'auth']]);
 */
export function manyRows<T extends keyof DB & string>(table: T, columns: ReadonlyArray<keyof DB[T] & string>, opts: { ignoreExisting?: boolean } = {}) {
  const width = columns.length;
  const statement = prepared((db, p, n: number) => {
    const rows = Array.from({ length: n }, (_, r) => slotRow<string>(p, columns, r * width));
    // Kysely cannot relate a row to a table left generic; the columns were checked against it above.
    const into: keyof DB & string = table;
    const insert = db.insertInto(into).values(rows);
    return opts.ignoreExisting ? insert.onConflict((oc) => oc.doNothing()) : insert;
  });
  const most = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / width)));
  return async (db: Q, rows: ReadonlyArray<readonly unknown[]>): Promise<void> => {
    for (let i = 0; i < rows.length; ) {
      const left = rows.length - i;
      const n = left >= most ? most : 2 ** Math.floor(Math.log2(left));
      const args = new Array<unknown>(n * width);
      for (let r = 0; r < n; r++) for (let c = 0; c < width; c++) args[r * width + c] = rows[i + r]![c];
      await statement.run(db, args, n);
      i += n;
    }
  };
}
