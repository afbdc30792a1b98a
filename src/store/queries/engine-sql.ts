/**
 * The few SQL fragments the engines spell differently (JSON arrays, string search), so every query
 * in this folder stays one definition for both. Each engine's Kysely adapter carries its fragments
 * (sqlite/engine-sql.ts, postgres/engine-sql.ts); a query asks for them through its db.
 */
import type { Expression, Kysely, RawBuilder } from 'kysely';

export interface EngineSql {
  /**
   * A compact JSON array text (`["a","b"]`, `[]` when empty) aggregated from `value` in `order`:
   * the stored relation columns' format (rows.ts parses it without JSON.parse when it can).
   */
  jsonTextArray(value: RawBuilder<unknown>, order: RawBuilder<unknown>): RawBuilder<string>;
  /** A JSON array as a row source: one row per element, in a column `value` (numbers or strings). */
  elements(json: Expression<unknown>, of: 'integer' | 'text'): RawBuilder<{ value: never }>;
  /** A JSON array text of these values (selected as text, never parsed by the driver). */
  jsonArray(values: ReadonlyArray<RawBuilder<unknown>>): RawBuilder<string>;
  /** `value` encoded as a JSON string literal (as it sits inside the stored arrays). */
  jsonQuote(value: Expression<unknown>): RawBuilder<string>;
  /** Where `needle` starts in `haystack`, 1-based; 0 when absent. */
  position(haystack: Expression<unknown>, needle: Expression<unknown>): RawBuilder<number>;
  /**
   * The ready order is indexed apart for open and closed work, and per project only (SQLite,
   * migration 20), so a task write touches fewer b-trees. A list that mixes open and closed work
   * then merges a page of each, and a ready queue over several projects a page of each project
   * (task-list.ts). PostgreSQL keeps an index over the whole order and plans one plain statement.
   */
  readonly splitReadyOrder: boolean;
}

/** What an engine's adapter carries. */
export interface EngineAdapter {
  readonly engineSql: EngineSql;
}

/** The fragments of the engine behind `db` (a store's Kysely instance or one of its transactions). */
export function engineSql(db: Kysely<any>): EngineSql {
  const adapter = db.getExecutor().adapter as Partial<EngineAdapter>;
  if (!adapter.engineSql) throw new Error('This Kysely instance was not opened by a Cairn store (its adapter carries no engine SQL)');
  return adapter.engineSql;
}
