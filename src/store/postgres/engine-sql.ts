/** PostgreSQL's spelling of the engine-specific fragments (queries/engine-sql.ts), and the Kysely dialect that carries them. */
import { type Kysely, PostgresAdapter, PostgresDriver, PostgresIntrospector, PostgresQueryCompiler, sql, type Dialect, type PostgresPool } from 'kysely';
import type { Pool } from 'pg';
import type { EngineAdapter, EngineSql } from '../queries/engine-sql.js';

export const postgresSql: EngineSql = {
  // string_agg over to_json keeps SQLite's compact form (`["a","b"]`), which json_agg would space out.
  jsonTextArray: (value, order) => sql<string>`('[' || coalesce(string_agg(to_json(${value})::text, ',' ORDER BY ${order}), '') || ']')`,
  elements: (json, of) =>
    of === 'integer'
      ? sql`(SELECT value::integer AS value FROM json_array_elements_text(CAST(${json} AS json)) AS j(value))`
      : sql`(SELECT value FROM json_array_elements_text(CAST(${json} AS json)) AS j(value))`,
  // As text: the driver would otherwise parse json into objects, and rows.ts parses the text itself.
  jsonArray: (values) => sql<string>`json_build_array(${sql.join(values)})::text`,
  jsonQuote: (value) => sql<string>`to_json(CAST(${value} AS text))::text`,
  position: (haystack, needle) => sql<number>`strpos(${haystack}, ${needle})`,
  splitReadyOrder: false,
};

class CairnPostgresAdapter extends PostgresAdapter implements EngineAdapter {
  readonly engineSql = postgresSql;
}

/** The pool as Kysely sees it, timing how long each caller waits for a connection (`onWait`, seconds). */
function timedPool(pool: Pool, onWait: (seconds: number) => void): PostgresPool {
  return {
    async connect() {
      const start = performance.now();
      const client = await pool.connect();
      onWait((performance.now() - start) / 1000);
      return client;
    },
    end: () => pool.end(),
  };
}

export function cairnPostgresDialect(pool: Pool, onWait?: (seconds: number) => void): Dialect {
  return {
    createAdapter: () => new CairnPostgresAdapter(),
    createDriver: () => new PostgresDriver({ pool: onWait ? timedPool(pool, onWait) : pool }),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (k: Kysely<any>) => new PostgresIntrospector(k),
  };
}
