/** SQLite's spelling of the engine-specific fragments (queries/engine-sql.ts): its JSON1 functions and instr. */
import { sql, SqliteAdapter } from 'kysely';
import type { EngineAdapter, EngineSql } from '../queries/engine-sql.js';

export const sqliteSql: EngineSql = {
  jsonTextArray: (value, order) => sql<string>`json_group_array(${value} ORDER BY ${order})`,
  elements: (json) => sql`(SELECT value FROM json_each(${json}))`,
  jsonArray: (values) => sql<string>`json_array(${sql.join(values)})`,
  jsonQuote: (value) => sql<string>`json_quote(${value})`,
  position: (haystack, needle) => sql<number>`instr(${haystack}, ${needle})`,
  splitReadyOrder: true,
};

export class CairnSqliteAdapter extends SqliteAdapter implements EngineAdapter {
  readonly engineSql = sqliteSql;
}
