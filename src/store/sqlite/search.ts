/**
 * Full-text search over the FTS5 index: bm25 ranking with field weights, matched fields and a
 * highlighted excerpt. Ranking is limited inside FTS5, and archived or deleted tasks sit in the
 * index under their negated task number (migration 13), so the default filter is `rowid > 0`:
 * a broad query neither reads a task row per match nor sorts every match in JavaScript.
 */
import { sql, type Kysely } from 'kysely';
import type { SearchAfter, SearchHit, TaskFilter } from '../../core/ports.js';
import type { DB } from '../schema.js';
import { prepared } from '../queries/prepared.js';
import { applyFilter, type CountCache } from '../queries/task-list.js';
import { summariesByNums } from '../queries/summary-cache.js';
import { likePattern, substringMarks, substringQuery, SUBSTRING_RANK } from '../queries/substring.js';
import { toFtsQuery } from './fts-query.js';
import { isPlainLatin, markHit, phrasesOf } from './excerpts.js';

type Q = Kysely<DB>;

export const SEARCH_FIELDS = ['title', 'labels', 'description', 'comments', 'checklist'] as const;
// title > labels > description > comments = checklist.
const WEIGHTS = sql.raw('10.0, 6.0, 3.0, 1.0, 1.0');

/** The index row of tasks `t`, rowid first: the task number, negated for archived or deleted tasks. Shared by reindexing and bulk builds. */
export const SEARCH_ROW_SQL = `SELECT CASE WHEN t.archived_at IS NULL AND t.deleted_at IS NULL THEN t.num ELSE -t.num END, t.title,
      COALESCE((SELECT group_concat(label, ' ') FROM task_labels l WHERE l.task_uid = t.uid), ''),
      t.description,
      COALESCE((SELECT group_concat(body, ' ') FROM comments c WHERE c.task_uid = t.uid), ''),
      COALESCE((SELECT group_concat(text, ' ') FROM checklist_items i WHERE i.task_uid = t.uid), '')
    FROM tasks t`;
export const SEARCH_INSERT_SQL = 'INSERT INTO task_search (rowid, title, labels, description, comments, checklist)';
// A new task has no search row, but its number may be a purged task's (num has no AUTOINCREMENT):
// REPLACE costs a lookup, like the delete it saves, and heals a row left behind by outside damage.
const REPLACE_SQL = SEARCH_INSERT_SQL.replace('INSERT', 'INSERT OR REPLACE');

// The row sits at the sign the task's visibility gives it (SEARCH_ROW_SQL, and the tasks_search_hidden
// trigger moves it when that changes): one lookup, where trying both signs doubled the delete.
const unindex = prepared((_db, p) => sql`DELETE FROM task_search WHERE rowid = (SELECT CASE WHEN archived_at IS NULL AND deleted_at IS NULL THEN num ELSE -num END FROM tasks WHERE uid = ${p(0)})`);
const index = prepared((_db, p) => sql`${sql.raw(SEARCH_INSERT_SQL)} ${sql.raw(SEARCH_ROW_SQL)} WHERE t.uid = ${p(0)}`);
const indexNew = prepared((_db, p) => sql`${sql.raw(REPLACE_SQL)} ${sql.raw(SEARCH_ROW_SQL)} WHERE t.uid = ${p(0)}`);

/** Rewrites the search row of one task from its current title, labels, description, comments and checklist. */
export async function reindexTask(db: Q, uid: string, isNew = false): Promise<void> {
  if (isNew) {
    await indexNew.run(db, [uid]);
    return;
  }
  await unindex.run(db, [uid]);
  await index.run(db, [uid]);
}

/**
 * The search rows of an import's new tasks, in rowid order. FTS5 writes its pending terms out as a
 * segment whenever a rowid arrives below the last one, and hidden tasks sit below zero. Fed row by
 * row, an import would flush a small segment at every archived task and spend its time merging them.
 * Hidden tasks first (their rowids ascend as numbers descend), then the rest: each statement walks
 * the numbers' IN list in order, so neither sorts the rows' text.
 */
export async function indexNewTasks(db: Q, uids: string[]): Promise<void> {
  const nums = sql`(SELECT num FROM tasks WHERE uid IN (SELECT value FROM json_each(${JSON.stringify(uids)})))`;
  const visible = sql.raw('t.archived_at IS NULL AND t.deleted_at IS NULL');
  await sql`${sql.raw(REPLACE_SQL)} ${sql.raw(SEARCH_ROW_SQL)} WHERE t.num IN ${nums} AND NOT (${visible}) ORDER BY t.num DESC`.execute(db);
  await sql`${sql.raw(REPLACE_SQL)} ${sql.raw(SEARCH_ROW_SQL)} WHERE t.num IN ${nums} AND ${visible} ORDER BY t.num`.execute(db);
}

export async function removeFromIndex(db: Q, num: number): Promise<void> {
  await sql`DELETE FROM task_search WHERE rowid IN (${num}, ${-num})`.execute(db);
}

type PageText = { rowid: number; title: string; labels: string; description: string; comments: string; checklist: string };
type Marks = Map<number, { matchedFields: string[]; excerpt: string }>;

function marksInJs(texts: PageText[], query: string): Marks {
  const phrases = phrasesOf(query);
  return new Map(
    texts.map((t) => {
      const { matched, excerpt } = markHit(
        SEARCH_FIELDS.map((f) => t[f] ?? ''),
        phrases,
      );
      return [Number(t.rowid), { matchedFields: SEARCH_FIELDS.filter((_, i) => matched[i]), excerpt }];
    }),
  );
}

/**
 * FTS5's own highlight() and snippet() over a temporary, connection-private copy of the page's
 * rows (same columns and tokenizer as task_search), for text whose tokens only FTS5 knows exactly.
 * The temp database is writable inside a read transaction and on a read-only connection.
 */
async function marksByFts5(db: Q, texts: PageText[], match: string): Promise<Marks> {
  await sql`CREATE VIRTUAL TABLE IF NOT EXISTS temp.page_search USING fts5(title, labels, description, comments, checklist, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  await sql`DELETE FROM temp.page_search`.execute(db);
  for (const t of texts) {
    await sql`INSERT INTO temp.page_search (rowid, title, labels, description, comments, checklist)
      VALUES (${t.rowid}, ${t.title}, ${t.labels}, ${t.description}, ${t.comments}, ${t.checklist})`.execute(db);
  }
  const marked = await sql<Record<string, string | number>>`SELECT rowid,
      highlight(page_search, 0, char(1), '') AS f0, highlight(page_search, 1, char(1), '') AS f1,
      highlight(page_search, 2, char(1), '') AS f2, highlight(page_search, 3, char(1), '') AS f3,
      highlight(page_search, 4, char(1), '') AS f4, snippet(page_search, -1, '**', '**', '\u2026', 16) AS excerpt
    FROM temp.page_search WHERE page_search MATCH ${match}`.execute(db);
  await sql`DELETE FROM temp.page_search`.execute(db);
  return new Map(marked.rows.map((m) => [Number(m.rowid), { matchedFields: SEARCH_FIELDS.filter((_, i) => String(m[`f${i}`] ?? '').includes('\u0001')), excerpt: String(m.excerpt ?? '') }]));
}

/** Filters that need the tasks table; without them the FTS index answers alone. */
function needsRows(f: TaskFilter): boolean {
  return Boolean(
    f.projectUids ||
      f.statuses?.length ||
      f.categories?.length ||
      f.kinds?.length ||
      f.priorities?.length ||
      f.labelsAny?.length ||
      f.labelsAll?.length ||
      f.assignee !== undefined ||
      f.parentUid ||
      f.updatedSince ||
      f.ready ||
      !f.includeDone ||
      f.includeArchived ||
      f.includeDeleted ||
      f.onlyDeleted,
  );
}

/** A ranked match: the task number and its index rowid (negative for a hidden task). */
type Ranked = { num: number; rowid: number; rank: number };

/** An exact count, remembered for this state of the workspace when the caller reads (see CountCache). */
const remembered = (db: Q, counts: CountCache | undefined, key: string, count: () => Promise<number>) => (counts ? counts.get(db, key, count) : count());

/** The hits a search cursor has shown, as a condition on task numbers (`num`, an expression). */
const unseen = (num: ReturnType<typeof sql.raw>, after: SearchAfter | undefined) =>
  after && 'seen' in after && after.seen.length ? sql`AND ${num} NOT IN (SELECT value FROM json_each(${JSON.stringify(after.seen)}))` : sql``;
/** Strictly after (rank, number), for cursors past the seen list's cap; applied to the ranked rows. */
const pastRank = (rank: ReturnType<typeof sql.raw>, num: ReturnType<typeof sql.raw>, after: SearchAfter | undefined) =>
  after && 'rank' in after ? sql`AND (${rank} > ${after.rank} OR (${rank} = ${after.rank} AND ${num} > ${after.num}))` : sql``;

/** Default filter (visible tasks, done ones included): rank, page and count inside FTS5, over rowids above zero. */
async function searchIndexOnly(db: Q, match: string, limit: number, after: SearchAfter | undefined, counts?: CountCache): Promise<{ page: Ranked[]; total: number }> {
  const ranked = await sql<Ranked>`SELECT num, rowid, rank FROM (SELECT rowid AS num, rowid, bm25(task_search, ${WEIGHTS}) AS rank
    FROM task_search WHERE task_search MATCH ${match} AND rowid > 0 ${unseen(sql.raw('rowid'), after)})
    WHERE 1 ${pastRank(sql.raw('rank'), sql.raw('num'), after)} ORDER BY rank, num LIMIT ${limit}`.execute(db);
  let total = ranked.rows.length;
  if (ranked.rows.length === limit || after) {
    total = await remembered(db, counts, `search:${match}`, async () => {
      const c = await sql<{ n: number }>`SELECT count(*) AS n FROM task_search WHERE task_search MATCH ${match} AND rowid > 0`.execute(db);
      return Number(c.rows[0]!.n);
    });
  }
  return { page: ranked.rows, total };
}

/** Other filters: take the best `depth` matches from FTS5, filter them by row, and deepen until the page fills. */
async function searchFiltered(db: Q, match: string, filter: TaskFilter, limit: number, after: SearchAfter | undefined, counts?: CountCache): Promise<{ page: Ranked[]; total: number }> {
  const want = limit + (after && 'seen' in after ? after.seen.length : 0);
  // Hidden tasks are below zero: a filter that cannot show them skips them in the index.
  const visible = !filter.includeArchived && !filter.includeDeleted && !filter.onlyDeleted ? sql`AND rowid > 0` : sql``;
  // `depth` null: every match; `rank` false: no scoring (counting needs none).
  const from = (depth: number | null, rank = true) => {
    const top = depth === null ? sql`` : sql`ORDER BY rank, num LIMIT ${depth}`;
    const score = rank ? sql`bm25(task_search, ${WEIGHTS})` : sql`0`;
    const ranked = sql<{
      num: number;
      rowid: number;
      rank: number;
    }>`(SELECT abs(rowid) AS num, rowid, ${score} AS rank FROM task_search WHERE task_search MATCH ${match} ${visible} ${unseen(sql.raw('abs(rowid)'), after)} ${top})`.as('s');
    // CROSS JOIN fixes SQLite's join order: ranked matches drive, tasks are looked up by rowid. A
    // plain join lets the planner scan every task of a filtered project and probe the matches.
    return db.selectFrom(ranked).crossJoin('tasks').whereRef('tasks.num', '=', 's.num');
  };
  const filtered = (depth: number | null, rank = true) => applyFilter(db, from(depth, rank), filter);
  let page: Ranked[] = [];
  for (let depth: number | null = Math.max(4 * want, 64); ; depth = depth * 8 > 20_000 ? null : depth * 8) {
    let q = filtered(depth).select(['tasks.num', 's.rowid', 's.rank']);
    if (after && 'rank' in after) q = q.where(sql<boolean>`1 ${pastRank(sql.raw('s.rank'), sql.raw('tasks.num'), after)}`);
    page = await q.orderBy('s.rank').orderBy('tasks.num').limit(limit).execute();
    if (page.length === limit || depth === null) break;
    // Fewer than `depth` matches in all: the page is complete already.
    const c = await sql<{ n: number }>`SELECT count(*) AS n FROM task_search WHERE task_search MATCH ${match} ${visible}`.execute(db);
    if (Number(c.rows[0]!.n) <= depth) break;
  }
  let total = page.length;
  if (page.length === limit || after) {
    total = await remembered(db, counts, `search:${match}:${JSON.stringify(filter)}`, async () => {
      const c = await filtered(null, false)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(c.n);
    });
  }
  return { page, total };
}

/**
 * Tasks whose squashed title or labels hold the squashed query (substring.ts) and that no word of
 * the query matched, in number order after the cursor: the hits ranked below every word match.
 */
async function substringHits(
  db: Q,
  sq: string,
  match: string | null,
  filter: TaskFilter,
  need: number,
  after: SearchAfter | undefined,
  counts: CountCache | undefined,
  wantTotal: boolean,
): Promise<{ page: Ranked[]; total: number }> {
  const rowid = sql<number>`CASE WHEN tasks.archived_at IS NULL AND tasks.deleted_at IS NULL THEN tasks.num ELSE -tasks.num END`;
  const base = () => {
    const grams = sql<{ num: number }>`(SELECT rowid AS num FROM task_grams WHERE grams LIKE ${likePattern(sq)})`.as('g');
    let q = db.selectFrom(grams).crossJoin('tasks').whereRef('tasks.num', '=', 'g.num');
    q = applyFilter(db, q, filter);
    // A word match already ranked it higher; the rowid equality lets FTS5 test just this row.
    if (match) q = q.where(sql<boolean>`NOT EXISTS (SELECT 1 FROM task_search WHERE task_search MATCH ${match} AND rowid = ${rowid})`);
    return q;
  };
  let q = base().select(['tasks.num as num', rowid.as('rowid'), sql<number>`${SUBSTRING_RANK}`.as('rank')]);
  if (after && 'seen' in after && after.seen.length) q = q.where('tasks.num', 'not in', after.seen);
  if (after && 'rank' in after && after.rank >= SUBSTRING_RANK) q = q.where('tasks.num', '>', after.num);
  const page = need > 0 ? await q.orderBy('g.num').limit(need).execute() : [];
  let total = page.length;
  if (wantTotal || page.length === need || after) {
    total = await remembered(db, counts, `substring:${sq}:${match}:${JSON.stringify(filter)}`, async () => {
      const c = await base()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(c.n);
    });
  }
  return { page, total };
}

export async function search(
  db: Q,
  query: string,
  filter: TaskFilter,
  limit: number,
  after: SearchAfter | undefined,
  counts?: CountCache,
): Promise<{ hits: SearchHit[]; total: number; consumed: Array<{ num: number; rank: number }>; more: boolean }> {
  const match = toFtsQuery(query);
  const sq = substringQuery(query);
  if (!match && !sq) return { hits: [], total: 0, consumed: [], more: false };
  // One match past the page says whether another follows. Once the word matches run out within a
  // page, it fills with substring matches (substringHits): a page the word matches fill costs no
  // substring work, so `total` counts the word matches until then (docs/decisions.md).
  let found: { page: Ranked[]; total: number } = !match
    ? { page: [], total: 0 }
    : needsRows(filter)
      ? await searchFiltered(db, match, filter, limit + 1, after, counts)
      : await searchIndexOnly(db, match, limit + 1, after, counts);
  if (sq && found.page.length <= limit) {
    const words = after ? found.total : found.page.length;
    const more = await substringHits(db, sq, match, filter, limit + 1 - found.page.length, after, counts, false);
    found = { page: [...found.page, ...more.page], total: words + more.total };
  }
  const more = found.page.length > limit;
  const page = more ? found.page.slice(0, limit) : found.page;
  const total = more || after ? found.total : page.length;
  const consumed = page.map((r) => ({ num: Number(r.num), rank: Number(r.rank) }));
  if (page.length === 0) return { hits: [], total, consumed, more: false };
  // Matched fields and excerpts only for the page, from its stored text (read by rowid, without a
  // MATCH): found in JavaScript for plain Latin text (excerpts.ts), by FTS5 on a page-sized copy
  // otherwise. Both stay off the main index, where highlight() walks every match between the
  // page's rowids.
  // The page's summary rows by number, in one query (a search page is rarely a page seen before).
  const rows = await summariesByNums(
    db,
    page.map((r) => r.num),
  );
  const texts = await sql<PageText>`SELECT rowid, title, labels, description, comments, checklist FROM task_search WHERE rowid IN (${sql.join(page.map((r) => r.rowid))})`.execute(db);
  const byWords = texts.rows.filter((t) => page.some((r) => r.rowid === Number(t.rowid) && r.rank < SUBSTRING_RANK));
  const marks =
    !match || byWords.length === 0
      ? (new Map() as Marks)
      : byWords.every((t) => SEARCH_FIELDS.every((f) => isPlainLatin(t[f] ?? ''))) && isPlainLatin(query)
        ? marksInJs(byWords, query)
        : await marksByFts5(db, byWords, match);
  for (const t of texts.rows) if (sq && !marks.has(Number(t.rowid))) marks.set(Number(t.rowid), substringMarks(sq, t.title, t.labels));
  const hits = page.flatMap((r) => {
    const task = rows.get(r.num);
    // An index row without its task (outside damage): skipped rather than failing the search.
    if (!task) return [];
    const m = marks.get(r.rowid) ?? { matchedFields: [], excerpt: '' };
    return [{ task, num: Number(r.num), rank: r.rank, matchedFields: m.matchedFields, excerpt: m.excerpt.replace(/\s+/g, ' ').trim() }];
  });
  return { hits, total, consumed, more };
}
