/**
 * Hot queries built and compiled by Kysely once per shape, then rerun with new values. For the
 * small statements a task read or write is made of, building and compiling the query costs more
 * than SQLite takes to run it; this keeps the typed, engine-neutral builder and drops that cost.
 */
import type { CompiledQuery, Compilable, Kysely, QueryResult, RawBuilder } from 'kysely';
import type { DialectAdapter } from 'kysely';
import type { DB } from '../schema.js';

type Q = Kysely<DB>;

/** Stands in for the i-th argument while the query is compiled; swapped for the value at run time. */
class Slot {
  constructor(readonly index: number) {}
}

/** `p(i)` is the i-th argument's placeholder; typed `never` so it fits wherever the builder wants a value. */
export type Slots = (index: number) => never;
// The one deliberate cast: a placeholder must fit every value position; bind() swaps it before the query runs.
const slot: Slots = (index) => new Slot(index) as never;

/** Runs a compiled query at once on the connection a transaction holds (see `runDirectly`). */
export interface DirectRunner {
  run<R>(q: CompiledQuery): QueryResult<R>;
}
const direct = new WeakMap<object, DirectRunner>();

/**
 * Lets hot queries on `db` (a transaction's Kysely instance) skip Kysely's executor, whose promise
 * hops per statement add up over a create's twenty statements. Only for an engine
 * whose connection runs a statement synchronously (better-sqlite3), held for the whole transaction;
 * the engine unregisters it (`undefined`) when the transaction's callback settles.
 */
export function runDirectly(db: Q, runner: DirectRunner | undefined): void {
  if (runner) direct.set(db, runner);
  else direct.delete(db);
}

function bind(q: CompiledQuery, args: readonly unknown[]): CompiledQuery {
  return { ...q, parameters: q.parameters.map((v) => (v instanceof Slot ? args[v.index] : v)) };
}

/**
 * Declares a query with placeholders. `shape` distinguishes variants whose SQL differs (an IN
 * list's length, the set of columns in a patch); everything else must go through `p(i)`.
 *
 * @example
 * const byUid = prepared((db, p) => db.selectFrom('tasks').select('num').where('uid', '=', p(0)));
 * const rows = await byUid.all(db, [uid]);
 */
export function prepared<R, S = undefined>(build: (db: Q, p: Slots, shape: S) => Compilable<R> | RawBuilder<R>) {
  // Per engine instance (keyed by its adapter, so another engine compiles its own SQL), then per
  // shape. A WeakMap, so a closed store's entries go with it.
  const compiled = new WeakMap<DialectAdapter, Map<string, CompiledQuery>>();
  function get(db: Q, shape: S): CompiledQuery {
    const adapter = db.getExecutor().adapter;
    let byShape = compiled.get(adapter);
    if (!byShape) compiled.set(adapter, (byShape = new Map()));
    let q = byShape.get(String(shape));
    // Shapes are bounded in practice (filter combinations, list lengths); the cap keeps a
    // long-running server from growing without limit if a caller proves otherwise.
    if (!q && byShape.size >= 500) byShape.clear();
    // A raw `sql` template needs the executor to compile; builders ignore the argument.
    if (!q) byShape.set(String(shape), (q = (build(db, slot, shape) as RawBuilder<R>).compile(db)));
    return q;
  }
  const exec = (db: Q, args: readonly unknown[], shape: S | undefined): Promise<QueryResult<R>> => {
    const q = bind(get(db, shape as S), args) as CompiledQuery<R>;
    const runner = direct.get(db);
    if (!runner) return db.executeQuery<R>(q);
    try {
      return Promise.resolve(runner.run<R>(q));
    } catch (err) {
      return Promise.reject(err);
    }
  };
  return {
    run: (db: Q, args: readonly unknown[], shape?: S): Promise<QueryResult<R>> => exec(db, args, shape),
    all: async (db: Q, args: readonly unknown[], shape?: S): Promise<R[]> => (await exec(db, args, shape)).rows,
  };
}

/**
 * A row of placeholders, one per column, from argument `from` on: the values of an INSERT or the
 * SET of an UPDATE. Typed by its column names, so an INSERT missing a required column fails to compile.
 */
export function slotRow<C extends string>(p: Slots, columns: readonly C[], from = 0): Record<C, never> {
  // Object.fromEntries types its keys as any string; they are exactly `columns`.
  return Object.fromEntries(columns.map((c, i) => [c, p(from + i)])) as Record<C, never>;
}

/** Placeholders for an IN list of `n` values starting at argument `from`. */
export const slots = (p: Slots, n: number, from = 0): never[] => Array.from({ length: n }, (_, i) => p(from + i));
