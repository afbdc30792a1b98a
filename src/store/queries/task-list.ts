/**
 * Filtered task listing: the filter and sort as SQL, exact totals, keyset pages that rank on index
 * entries and read only the page's rows, and the ready queue's two halves in one statement.
 */
import { expressionBuilder, sql, type AliasedExpression, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { ListAfter, TaskFilter, TaskSort, TaskSummaryRow } from '../../core/ports.js';
import { priorityRank } from '../../core/model/task.js';
import type { DB } from '../schema.js';
import { engineSql, type EngineSql } from './engine-sql.js';
import { filterShape, type FilterShape, type StoreFilter } from './filter-shape.js';
import { lastSeq } from './events.js';
import { prepared, type Slots } from './prepared.js';
import { summaryRows, type RowKey, type SummaryCache } from './summary-cache.js';

type Q = Kysely<DB>;
type Packed = RowKey;

/**
 * The row keys (number, uid, revision) of a key subquery (`num` column): summaryRows turns them
 * into summaries, reading only rows it does not remember at that revision. The keys drive the join
 * (SQLite keeps CROSS JOIN order; elsewhere it is an ordinary join), which saves materialising an
 * IN list; the caller orders the result.
 */
function rowsOf(db: Q, keys: { as(alias: 'k'): AliasedExpression<{ num: number }, 'k'> }) {
  return db.selectFrom(keys.as('k')).crossJoin('tasks').whereRef('tasks.num', '=', 'k.num').select(['tasks.num', 'tasks.uid', 'tasks.rev']);
}

/** Anything a filter condition can be added to: any select over `tasks`, whatever else it joins. */
type Filterable<QB> = { where(condition: Expression<SqlBool>): QB };

/** Builds the filter's conditions on `tasks` alone, so they fit every query that selects from it. */
const taskEb = expressionBuilder<DB, 'tasks'>();

export function applyFilter<QB extends Filterable<QB>>(db: Q, q: QB, filter: TaskFilter): QB {
  const eb = taskEb;
  const hasLabel = labelTest(engineSql(db));
  const f = filter as StoreFilter;
  const ranks = f.priorityRanks ?? f.priorities?.map(priorityRank);
  if (f.projectUids) q = q.where(eb('tasks.project_uid', 'in', f.projectUids.length ? f.projectUids : ['']));
  if (f.statuses?.length) q = q.where(eb('tasks.status', 'in', f.statuses));
  if (f.categories?.length) q = q.where(eb('tasks.category', 'in', f.categories));
  if (f.kinds?.length) q = q.where(eb('tasks.kind', 'in', f.kinds));
  if (ranks?.length) q = q.where(eb('tasks.priority', 'in', ranks));
  if (f.assignee === null) q = q.where(eb('tasks.assignee', 'is', null));
  else if (f.assignee !== undefined) q = q.where(eb('tasks.assignee', '=', f.assignee));
  if (f.substatuses?.length) q = q.where(eb('tasks.substatus', 'in', f.substatuses));
  if (f.slug !== undefined) q = q.where(eb('tasks.slug', '=', f.slug));
  if (f.parentUid) q = q.where(eb('tasks.parent_uid', '=', f.parentUid));
  if (f.updatedSince) q = q.where(eb('tasks.updated_at', '>=', f.updatedSince));
  if (f.onlyDeleted) q = q.where(eb('tasks.deleted_at', 'is not', null));
  else if (!f.includeDeleted) q = q.where(eb('tasks.deleted_at', 'is', null));
  if (!f.includeArchived) q = q.where(eb('tasks.archived_at', 'is', null));
  // Ready implies open; repeating it would let tasks_open compete with the (smaller) ready indexes.
  if (!f.includeDone && !f.categories?.length && !f.statuses?.length && !f.ready) q = q.where(eb('tasks.category', 'not in', [lit('done'), lit('canceled')]));
  if (f.labelsAny?.length) q = q.where(eb.or(f.labelsAny.map((label) => hasLabel(label))));
  for (const label of f.labelsAll ?? []) q = q.where(hasLabel(label));
  if (f.ready) {
    const { now, actor, includeBacklog } = f.ready;
    const part = f.readyPart;
    // Constants are inlined, not bound: SQLite uses a partial index only when it can prove the
    // query's WHERE implies the index's, and a `?` placeholder proves nothing at prepare time.
    q = q
      .where(eb('tasks.open_blockers', '=', lit(0)))
      .where(eb('tasks.archived_at', 'is', null))
      .where(eb('tasks.deleted_at', 'is', null));
    // "fresh": todo tasks (matches the partial ready indexes); "abandoned": in progress under an expired claim (tasks_abandoned).
    const fresh = () => (includeBacklog ? eb('tasks.category', 'in', [lit('todo'), lit('backlog')]) : eb('tasks.category', '=', lit('todo')));
    const abandoned = () => eb.and([eb('tasks.category', '=', lit('in_progress')), eb('tasks.claimed_by', 'is not', null), eb('tasks.claim_expires_at', '<=', now)]);
    if (part === 'fresh') q = q.where(fresh());
    else if (part === 'abandoned') q = q.where(abandoned());
    else q = q.where(eb.or([fresh(), abandoned()]));
    q = q.where(eb.or([eb('tasks.claimed_by', 'is', null), eb('tasks.claim_expires_at', '<=', now), ...(actor ? [eb('tasks.claimed_by', '=', actor)] : [])]));
  }
  return q;
}

/**
 * "The task carries `label`", tested on the row's stored label array (JSON text, kept by trigger)
 * rather than by probing task_labels: tasks_open holds that column, so an open list filtered by
 * label never leaves the index. Exact: inside a JSON string every quote is escaped, so `["x"` at
 * the start or `,"x"` anywhere can only be a whole element; the label is quoted as the array does.
 */
const labelTest = (e: EngineSql) => (label: string) => {
  const quoted = e.jsonQuote(sql`${label}`);
  return sql<boolean>`(${e.position(sql.ref('tasks.rel_labels'), sql`'[' || ${quoted}`)} = 1 OR ${e.position(sql.ref('tasks.rel_labels'), sql`',' || ${quoted}`)} > 0)`;
};

/** A constant written into the SQL text (see the ready filter for why). Only for fixed values, never user input. */
const lit = <T extends string | number>(v: T) => sql.lit(v);

type EB = ExpressionBuilder<DB, 'tasks'>;

type Dir = 'asc' | 'desc';
type TaskColumn = keyof DB['tasks'] & string;
/** A task column as an expression; typed, so a misspelt sort column fails to compile. */
const taskRef = (column: TaskColumn) => taskEb.ref(`tasks.${column}`);
/** The ready order's columns, which label_order repeats (migration 10). */
type ReadyColumn = TaskColumn & keyof DB['label_order'];
const labelRef = expressionBuilder<DB & { lo: DB['label_order'] }, 'lo'>();
const READY_KEY: ReadonlyArray<readonly [ReadyColumn, Dir]> = [
  ['priority', 'desc'],
  ['score', 'desc'],
  ['position', 'asc'],
  ['created_at', 'asc'],
  ['uid', 'asc'],
];
/**
 * Each sort's columns, ending in a unique one so the order is total: the ORDER BY, and the key a
 * page starts after (core/services/cursor.ts sortKeyOf gives the same values from a row).
 */
const SORT_KEYS: Record<TaskSort, ReadonlyArray<readonly [TaskColumn, Dir]>> = {
  created: [
    ['created_at', 'desc'],
    ['uid', 'desc'],
  ],
  updated: [
    ['updated_at', 'desc'],
    ['uid', 'desc'],
  ],
  position: [
    ['project_uid', 'asc'],
    ['status', 'asc'],
    ['position', 'asc'],
    ['uid', 'asc'],
  ],
  id: [
    ['project_uid', 'asc'],
    ['seq', 'asc'],
  ],
  priority: READY_KEY, // DESIGN §2 ready order
  ready: READY_KEY,
};

/** Anything that can be ordered by a task column: any select over `tasks`, whatever else it joins. */
type Sortable<QB> = { orderBy(expression: Expression<unknown>, direction: Dir): QB };

function applySort<QB extends Sortable<QB>>(q: QB, sort: TaskSort): QB {
  for (const [column, dir] of SORT_KEYS[sort]) q = q.orderBy(taskRef(column), dir);
  return q;
}

/**
 * "Strictly after the key in `cols` order" over the columns as `column` refers to them, the key's
 * values being arguments `at`, `at + 1`, …: (c0 past v0) OR (c0 = v0 AND ((c1 past v1) OR …)).
 * Written out rather than as a row value because the directions mix; the leading column is also
 * bounded on its own, so an index ordered by it starts its range at the key instead of testing
 * every entry before.
 */
function afterKey<C>(cols: ReadonlyArray<readonly [C, Dir]>, column: (c: C) => Expression<unknown>, p: Slots, at = 0): Expression<SqlBool> {
  const eb = taskEb;
  const ref = (i: number) => column(cols[i]![0]);
  const past = (i: number) => eb(ref(i), cols[i]![1] === 'desc' ? '<' : '>', p(at + i));
  let e = past(cols.length - 1);
  for (let i = cols.length - 2; i >= 0; i--) e = eb.or([past(i), eb.and([eb(ref(i), '=', p(at + i)), e])]);
  return eb.and([eb(ref(0), cols[0]![1] === 'desc' ? '<=' : '>=', p(at)), e]);
}
const afterTaskKey = (sort: TaskSort, p: Slots, at = 0) => afterKey(SORT_KEYS[sort], taskRef, p, at);

/** How many arguments a keyset takes for `sort` (0 on a first page). */
const keyLength = (sort: TaskSort, keyed: boolean) => (keyed ? SORT_KEYS[sort].length : 0);

// No join to projects: every task has one (foreign key), and the filter never reads it.
const countQuery = prepared((db, p, shape: FilterShape) => applyFilter(db, db.selectFrom('tasks'), shape.make(p)).select((eb) => eb.fn.countAll<number>().as('n')));

/**
 * Exact totals remembered for one state of the workspace. Agents page through results and repeat
 * the same filters, and an exact count walks every match (every index entry of a large project's
 * open work), so a read reuses the total counted for the same filter at the same state. Every
 * mutation appends to the activity log in its own transaction, so the log's last seq, read inside
 * the reader's snapshot, names that state exactly: a commit by any process empties the cache.
 * Only read transactions use it; a write's uncommitted counts must never be remembered.
 */
export class CountCache {
  #seq = -1;
  readonly #counts = new Map<string, number>();

  clear(): void {
    this.#counts.clear();
    this.#seq = -1;
  }

  async get(db: Q, key: string, count: () => Promise<number>): Promise<number> {
    const seq = await lastSeq(db);
    if (seq !== this.#seq) {
      this.#counts.clear();
      this.#seq = seq;
    }
    let n = this.#counts.get(key);
    if (n === undefined) {
      n = await count();
      // Readers overlap (PostgreSQL): one on a newer snapshot may have moved the cache on while this
      // one counted; its count belongs to its own state only, so it is kept only if that is still current.
      if (this.#seq !== seq) return n;
      if (this.#counts.size >= 512) this.#counts.clear();
      this.#counts.set(key, n);
    }
    return n;
  }
}

/**
 * The open work of one project carrying one label, in ready order: label_order walks exactly those
 * tasks (migration 10) where tasks_open would test every open task of the project. Other filters
 * (kind, priority, assignee, parent, updated since) join the task row per entry; statuses and
 * categories may name done work, which label_order does not hold, so they take the general path.
 */
function byLabel(f: StoreFilter, sort: TaskSort): { project: string; label: string; rest: StoreFilter } | undefined {
  if ((sort !== 'priority' && sort !== 'ready') || f.ready || f.includeDone || f.includeArchived || f.includeDeleted || f.onlyDeleted) return undefined;
  if (f.projectUids?.length !== 1 || f.labelsAny?.length !== 1 || f.labelsAll?.length || f.statuses?.length || f.categories?.length) return undefined;
  const { projectUids, labelsAny, ...rest } = f;
  return { project: projectUids[0]!, label: labelsAny[0]!, rest };
}

/** Keys from label_order for (project, label) = arguments 0 and 1, the other filters' values after them. */
function labelKeys(db: Q, p: Slots, shape: LabelShape) {
  return (
    db
      .selectFrom('label_order as lo')
      .where('lo.project_uid', '=', p(0))
      .where('lo.label', '=', p(1))
      // CROSS JOIN keeps label_order first, so the walk stays in ready order and stops at the page.
      // $if keeps the result typed as label_order alone: what follows reads only its columns.
      .$if(shape.joined, (keys) =>
        applyFilter(
          db,
          keys.crossJoin('tasks').whereRef('tasks.num', '=', 'lo.num'),
          shape.make((i) => p(i + 2)),
        ),
      )
  );
}

type LabelShape = FilterShape & { joined: boolean; keyed?: boolean };

const labelCountQuery = prepared((db, p, shape: LabelShape) => labelKeys(db, p, shape).select((eb) => eb.fn.countAll<number>().as('n')));

// Arguments: the keyset (when keyed), project, label, the other filters' values, limit.
const labelPageQuery = prepared((db, p, shape: LabelShape) => {
  const k = keyLength('priority', shape.keyed === true);
  const n = k + shape.args.length + 2;
  let keys = labelKeys(db, (i) => p(k + i), shape).select('lo.num as num');
  if (k) keys = keys.where(afterKey(READY_KEY, (c) => labelRef.ref(`lo.${c}`), p));
  for (const [column, dir] of READY_KEY) keys = keys.orderBy(`lo.${column}`, dir);
  return applySort(rowsOf(db, keys.limit(p(n))), 'priority');
});

/** The filter left after project and label, as a shape; joined when any of it needs the task row. */
function labelShape(rest: StoreFilter): LabelShape {
  // Without other filters the open conditions are what label_order already means: no join.
  const { includeDone: _d, includeArchived: _a, ...others } = rest;
  const joined = Object.values(others).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
  const shape = filterShape(rest, 'label');
  return Object.assign(shape, { joined, toString: () => `${shape.key}|joined:${joined}` });
}

async function countFiltered(db: Q, f: TaskFilter, cache?: CountCache): Promise<number> {
  const label = byLabel(f, 'priority');
  const shape = label ? labelShape(label.rest) : filterShape(f);
  const count = async () => {
    const [c] = label ? await labelCountQuery.all(db, [label.project, label.label, ...shape.args], shape as LabelShape) : await countQuery.all(db, shape.args, shape);
    return Number((c as { n: number }).n);
  };
  const values = label ? [label.project, label.label, ...shape.args] : shape.args;
  return cache ? cache.get(db, `list:${shape.key}:${JSON.stringify(values)}`, count) : count();
}

// Keys first, rows later: the filter and order run on index entries alone (the ordered indexes end
// in uid and tasks_open repeats its WHERE columns), and only the page's rows are read and joined.
// Shape: the filter's shape, the sort and whether a keyset starts the page. Arguments: the keyset
// (when keyed), the filter's values, the limit.
const pageQuery = prepared((db, p, shape: FilterShape & { sort: TaskSort; keyed: boolean }) => {
  const k = keyLength(shape.sort, shape.keyed);
  let keys = applySort(
    applyFilter(
      db,
      db.selectFrom('tasks').select('tasks.num'),
      shape.make((i) => p(k + i)),
    ),
    shape.sort,
  );
  if (k) keys = keys.where(afterTaskKey(shape.sort, p));
  return applySort(rowsOf(db, keys.limit(p(k + shape.args.length))), shape.sort);
});

/** Open work, as tasks_open's WHERE states it; constants written into the text (see the ready filter). */
export const isOpen = (eb: EB) => eb.and([eb('tasks.category', 'not in', [lit('done'), lit('canceled')]), eb('tasks.archived_at', 'is', null), eb('tasks.deleted_at', 'is', null)]);
/** Done or canceled work that is neither archived nor deleted: tasks_closed's first condition, with the columns it holds. */
export const isFinishedLive = (eb: EB) => eb.and([eb('tasks.category', 'in', [lit('done'), lit('canceled')]), eb('tasks.archived_at', 'is', null), eb('tasks.deleted_at', 'is', null)]);
/** Its complement, as tasks_closed's WHERE states it (migration 20). */
const isClosed = (eb: EB) => eb.or([eb('tasks.category', 'in', [lit('done'), lit('canceled')]), eb('tasks.archived_at', 'is not', null), eb('tasks.deleted_at', 'is not', null)]);

/**
 * Which halves a list in ready order needs: none when the filter keeps it to open work (tasks_open
 * alone serves it, through the ordinary page query), else open work unless the filter rules it out
 * and closed work unless it does. Categories are the caller's; statuses are looked up (a status
 * name may mean different categories in different projects).
 */
async function halvesOf(db: Q, f: StoreFilter, sort: TaskSort): Promise<{ open: boolean; closed: boolean } | undefined> {
  if ((sort !== 'priority' && sort !== 'ready') || f.ready || !engineSql(db).splitReadyOrder) return undefined;
  const hidden = !!(f.includeArchived || f.includeDeleted || f.onlyDeleted);
  if (!hidden && !f.includeDone && !f.categories?.length && !f.statuses?.length) return undefined;
  let categories: string[] | undefined = f.categories?.length ? f.categories : undefined;
  if (f.statuses?.length) {
    let q = db.selectFrom('statuses').select('category').distinct().where('name', 'in', f.statuses);
    if (f.projectUids) q = q.where('project_uid', 'in', f.projectUids.length ? f.projectUids : ['']);
    const named = (await q.execute()).map((r) => r.category);
    categories = categories ? categories.filter((c) => named.includes(c)) : named;
  }
  const isClosedCategory = (c: string) => c === 'done' || c === 'canceled';
  const someOpen = categories ? categories.some((c) => !isClosedCategory(c)) : true;
  const someClosed = categories ? categories.some(isClosedCategory) : !!f.includeDone;
  return { open: someOpen && !f.onlyDeleted, closed: someClosed || hidden };
}

/**
 * Arms that each rank a page of index entries (ORDER_COLUMNS), merged in ready order: the best
 * `limit` of them, and only those rows read.
 */
function mergedPage(db: Q, arms: Arm[], limit: never, sort: TaskSort) {
  const both = arms.reduce((u, arm) => u.unionAll(arm)).as('u');
  const keys = db.selectFrom(both).select('u.num').orderBy('u.priority', 'desc').orderBy('u.score', 'desc').orderBy('u.position').orderBy('u.created_at').orderBy('u.uid').limit(limit);
  return applySort(rowsOf(db, keys), sort);
}

/** A subquery's alias in a merged page: `h0`, `f1`, `a1`, … */
type ArmAlias = `${'h' | 'f' | 'a'}${number}`;
/** One arm of a merged page: every column of a ranked subquery of index entries. */
const armOf = (db: Q, ranked: AliasedExpression<OrderKeys, ArmAlias>, alias: ArmAlias) => db.selectFrom(ranked).selectAll(alias);
type Arm = ReturnType<typeof armOf>;

type MixedShape = FilterShape & { sort: TaskSort; keyed: boolean; open: boolean; closed: boolean };

// A list in ready order that may hold closed work: no index holds every task in that order (a write
// to an open task would rewrite two), so the best page of open work (tasks_open) and the best page
// of closed work (tasks_closed) are each ranked on their index from the keyset, merged in ready
// order, and only the page's rows read; a half the filter rules out is left out. Both indexes hold
// the columns of the open test, so neither half reads a row to apply it. Arguments per half: the
// keyset (when keyed), the filter's values, the limit; then the limit.
const mixedQuery = prepared((db, p, shape: MixedShape) => {
  const k = keyLength(shape.sort, shape.keyed);
  const n = k + shape.args.length + 1;
  const half = (part: (eb: EB) => ReturnType<typeof isOpen>, at: number, alias: ArmAlias) => {
    let q = applySort(
      applyFilter(
        db,
        db.selectFrom('tasks').select(ORDER_COLUMNS),
        shape.make((i) => p(at + k + i)),
      ),
      shape.sort,
    );
    q = q.where(part);
    if (k) q = q.where(afterTaskKey(shape.sort, (i) => p(at + i)));
    return q.limit(p(at + k + shape.args.length)).as(alias);
  };
  const parts = [...(shape.open ? [isOpen] : []), ...(shape.closed ? [isClosed] : [])];
  const arms = parts.map((part, i) => armOf(db, half(part, i * n, `h${i}`), `h${i}`));
  return mergedPage(db, arms, p(parts.length * n), shape.sort);
});

async function page(db: Q, f: StoreFilter, sort: TaskSort, limit: number, after: ListAfter | undefined): Promise<Packed[]> {
  const label = byLabel(f, sort);
  const keyed = after !== undefined;
  if (label) {
    const base = labelShape(label.rest);
    const key = `${base}|after:${keyed}`;
    const shape = Object.assign(base, { keyed, toString: () => key });
    return (await labelPageQuery.all(db, [...(after ?? []), label.project, label.label, ...shape.args, limit], shape)) as Packed[];
  }
  const base = filterShape(f, sort);
  const key = `${base.key}|after:${keyed}`;
  const shape = Object.assign(base, { sort, keyed, toString: () => key });
  const halves = await halvesOf(db, f, sort);
  if (halves) {
    if (!halves.open && !halves.closed) return [];
    const mixed = Object.assign(shape, halves, { toString: () => `${key}|open:${halves.open}|closed:${halves.closed}` });
    const half = [...(after ?? []), ...shape.args, limit];
    return (await mixedQuery.all(db, [...half, ...(halves.open && halves.closed ? half : []), limit], mixed)) as Packed[];
  }
  return (await pageQuery.all(db, [...(after ?? []), ...shape.args, limit], shape)) as Packed[];
}

type ReadyShape = { fresh: FilterShape; abandoned: FilterShape; sort: TaskSort; keyed: boolean; groups: number; toString(): string };
const ORDER_COLUMNS = ['tasks.num', 'tasks.priority', 'tasks.score', 'tasks.position', 'tasks.created_at', 'tasks.uid'] as const;
type OrderKeys = { num: number; priority: number; score: number; position: number; created_at: string; uid: string };

// The ready queue's two halves in one statement: the best `limit` todo tasks (tasks_ready_project)
// and the best `limit` abandoned claims (tasks_abandoned_project), each ranked on its index from the
// keyset, merged in ready order on their index entries, and only the page's rows read. A queue
// over several projects (or all) has both halves once per project (`groups`): the ready indexes
// begin with the project, and SQLite plans a list of projects as a sort of every ready task of
// them. Arguments: the keyset (when keyed); per group, fresh values, limit, abandoned values,
// limit; then the limit.
const readyQuery = prepared((db, p, shape: ReadyShape) => {
  const k = keyLength(shape.sort, shape.keyed);
  const sf = shape.fresh.args.length;
  const per = sf + shape.abandoned.args.length + 2;
  const half = (s: FilterShape, at: number, alias: ArmAlias) => {
    let q = applySort(
      applyFilter(
        db,
        db.selectFrom('tasks').select(ORDER_COLUMNS),
        s.make((i) => p(at + i)),
      ),
      shape.sort,
    );
    if (k) q = q.where(afterTaskKey(shape.sort, p));
    return q.limit(p(at + s.args.length)).as(alias);
  };
  const arms: Arm[] = [];
  for (let j = 0; j < shape.groups; j++) {
    const at = k + j * per;
    arms.push(armOf(db, half(shape.fresh, at, `f${j}`), `f${j}`));
    arms.push(armOf(db, half(shape.abandoned, at + sf + 1, `a${j}`), `a${j}`));
  }
  return mergedPage(db, arms, p(k + shape.groups * per), shape.sort);
});

/** Above this many projects a queue over all of them is one statement again (sorted, not merged). */
const MAX_READY_GROUPS = 64;

async function readyPage(db: Q, f: StoreFilter, sort: TaskSort, limit: number, after: ListAfter | undefined): Promise<Packed[]> {
  // One group per project unless the filter names exactly one (the filter's values begin with it),
  // or the engine indexes the whole order.
  const perProject = engineSql(db).splitReadyOrder && f.projectUids?.length !== 1;
  let uids = !perProject ? undefined : (f.projectUids ?? (await db.selectFrom('projects').select('uid').orderBy('uid').execute()).map((r) => r.uid));
  if (uids && uids.length === 0) return [];
  if (uids && uids.length > MAX_READY_GROUPS) uids = undefined;
  const one: StoreFilter = uids ? { ...f, projectUids: [uids[0]!] } : f;
  const fresh = filterShape({ ...one, readyPart: 'fresh' }, sort);
  const abandoned = filterShape({ ...one, readyPart: 'abandoned' }, sort);
  const keyed = after !== undefined;
  const groups = uids?.length ?? 1;
  const shape: ReadyShape = { fresh, abandoned, sort, keyed, groups, toString: () => `${fresh.key}/${abandoned.key}|after:${keyed}|groups:${groups}` };
  const args: unknown[] = [...(after ?? [])];
  for (const uid of uids ?? [undefined]) {
    const values = (a: unknown[]) => (uid === undefined ? a : [uid, ...a.slice(1)]);
    args.push(...values(fresh.args), limit, ...values(abandoned.args), limit);
  }
  args.push(limit);
  return (await readyQuery.all(db, args, shape)) as Packed[];
}

export async function listTasks(
  db: Q,
  f: TaskFilter,
  sort: TaskSort,
  limit: number,
  after: ListAfter | undefined,
  opts: { count?: boolean } = {},
  cache?: CountCache,
  summaries?: SummaryCache,
): Promise<{ rows: TaskSummaryRow[]; total: number; more: boolean }> {
  // One row past the page says whether another follows; only the page's rows are read.
  const ready = f.ready && (sort === 'priority' || sort === 'ready');
  // Two index-friendly halves merged in ready order beat one OR that no index can serve.
  let rows = ready ? await readyPage(db, f, sort, limit + 1, after) : await page(db, f, sort, limit + 1, after);
  const more = rows.length > limit;
  if (more) rows = rows.slice(0, limit);
  // A first page with nothing after it holds every match: the total is exact without counting.
  let total = rows.length;
  if (opts.count !== false && (more || after !== undefined)) total = await countFiltered(db, f, cache);
  return { rows: await summaryRows(db, rows, summaries), total, more };
}
