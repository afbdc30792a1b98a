/**
 * Summary rows remembered by row revision. A page of a list names its rows by (num, uid, rev)
 * read from the index walk and the row header; only rows this process has not seen at that
 * revision are serialized and parsed. Packing 28 values per row in SQLite and parsing them would
 * be most of a 50-row list's cost (docs/decisions.md "Summary rows by revision").
 *
 * Correct because a row's revision changes whenever the row does: hot paths bump `rev` in the same
 * UPDATE, and a trigger bumps it after any other UPDATE that left it alone (migration 11), so no
 * UPDATE, another process's included, can change a summary without a new revision. A new task
 * starts at a random revision, so a row that outside SQL replaces wholesale (INSERT OR REPLACE,
 * which fires no UPDATE trigger and resets rev to its default) does not match either. The uid is
 * compared too, since `num` can be reused after a purge. Only read transactions use the cache: a
 * write transaction may see a revision that is later rolled back and reused.
 */
import { sql, type Kysely } from 'kysely';
import type { TaskSummaryRow } from '../../core/ports.js';
import type { DB } from '../schema.js';
import { prepared } from './prepared.js';
import { packedSummary, unpackSummary } from './rows.js';
import { engineSql } from './engine-sql.js';

type Q = Kysely<DB>;

/** A page row as the index walk names it. */
export interface RowKey {
  num: number;
  uid: string;
  rev: number;
}

interface Entry {
  uid: string;
  rev: number;
  row: TaskSummaryRow;
}

export class SummaryCache {
  readonly #rows = new Map<number, Entry>();

  /** `capacity` rows (~1 KB each); past it the row remembered first goes first (reads do not renew a row). */
  constructor(readonly capacity = 8192) {}

  get(k: RowKey): TaskSummaryRow | undefined {
    const e = this.#rows.get(k.num);
    return e && e.rev === k.rev && e.uid === k.uid ? e.row : undefined;
  }

  set(k: RowKey, row: TaskSummaryRow): void {
    if (this.#rows.size >= this.capacity && !this.#rows.has(k.num)) this.#rows.delete(this.#rows.keys().next().value!);
    this.#rows.set(k.num, { uid: k.uid, rev: k.rev, row });
  }

  clear(): void {
    this.#rows.clear();
  }
}

/**
 * Rows shared between answers must not change under a caller: the relation arrays are frozen, so a
 * caller that tried to sort or extend one in place would fail loudly instead of corrupting others.
 */
function frozen(row: TaskSummaryRow): TaskSummaryRow {
  Object.freeze(row.labels);
  Object.freeze(row.blockedBy);
  Object.freeze(row.openBlockerIds);
  Object.freeze(row.blocks);
  Object.freeze(row.children);
  return Object.freeze(row);
}

// The missing rows by number, in one statement: the list arrives as one JSON array, so one prepared
// statement serves any count (an IN list would compile once per length).
const packedByNums = prepared((db, p) =>
  db
    .selectFrom(engineSql(db).elements(p(0), 'integer').as('j'))
    .crossJoin('tasks')
    .innerJoin('projects as p', 'p.uid', 'tasks.project_uid')
    .whereRef('tasks.num', '=', sql.ref('j.value'))
    .select(['tasks.num as num', packedSummary(db).as('packed')]),
);

/** Summary rows by task number (numbers with no row are absent), read in one query, nothing remembered. */
export async function summariesByNums(db: Q, nums: readonly number[]): Promise<Map<number, TaskSummaryRow>> {
  if (nums.length === 0) return new Map();
  return new Map((await packedByNums.all(db, [JSON.stringify(nums)])).map((r) => [r.num, unpackSummary(r.packed)]));
}

/** The summary rows for `keys`, in their order: remembered ones as they are, the rest read in one query. */
export async function summaryRows(db: Q, keys: readonly RowKey[], cache: SummaryCache | undefined): Promise<TaskSummaryRow[]> {
  const out: Array<TaskSummaryRow | undefined> = cache ? keys.map((k) => cache.get(k)) : new Array(keys.length);
  const missing: number[] = [];
  for (let i = 0; i < keys.length; i++) if (out[i] === undefined) missing.push(keys[i]!.num);
  if (missing.length === 0) return out as TaskSummaryRow[];
  const fetched = await summariesByNums(db, missing);
  for (let i = 0; i < keys.length; i++) {
    if (out[i] !== undefined) continue;
    const k = keys[i]!;
    const row = fetched.get(k.num);
    // Read in the same transaction as the keys, so it exists; the guard keeps a type honest.
    if (!row) throw new Error(`task row ${k.num} vanished inside one transaction`);
    out[i] = cache ? frozen(row) : row;
    if (cache) cache.set(k, out[i]!);
  }
  return out as TaskSummaryRow[];
}
