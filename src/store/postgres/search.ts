/**
 * Full-text search on PostgreSQL's own engine: a tsvector per task (title A, labels B, description
 * C, comments and checklist D) under a GIN index, ranked by ts_rank with the SQLite engine's field
 * weights, excerpts by ts_headline. The query syntax is the SQLite engine's (words, "phrases",
 * prefix*): each phrase becomes a phraseto_tsquery, a trailing `*` a prefix match on its last word.
 *
 * Text is folded in JavaScript before it is vectorised (case and diacritics, as FTS5's unicode61
 * with remove_diacritics folds it), so `cafe` finds `Café` here too without the unaccent extension,
 * which a managed server may not offer.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { SearchAfter, SearchHit, TaskFilter } from '../../core/ports.js';
import type { DB } from '../schema.js';
import { applyFilter, type CountCache } from '../queries/task-list.js';
import { summariesByNums } from '../queries/summary-cache.js';
import { prepared } from '../queries/prepared.js';
import { gramsPostgres, likePattern, substringMarks, substringQuery, SUBSTRING_RANK } from '../queries/substring.js';
import { fold, isPlainLatin, markHit, phrasesOf, type Phrase } from '../sqlite/excerpts.js';

type Q = Kysely<DB>;

const FIELDS = ['title', 'labels', 'description', 'comments', 'checklist'] as const;
// {D, C, B, A}: comments and checklist 1, description 3, labels 6, title 10 (the SQLite engine's bm25 weights).
const WEIGHTS = sql.lit('{0.1, 0.3, 0.6, 1.0}');

type Texts = { num: number; title: string; labels: string; description: string; comments: string; checklist: string };

/**
 * Rewrites one task's index row from its current text. ASCII text has nothing to fold but case, so
 * the server builds the row itself in one statement (lowercased under the "C" collation, as
 * JavaScript lowercases ASCII); other text is read, folded here and written back.
 */
export async function reindexTask(db: Q, uid: string): Promise<void> {
  const [r] = await reindexAscii.all(db, [uid]);
  if (r && !r.done) await insertRows(db, (await pageTexts(db, sql`t.uid = ${uid}`)).rows);
}

const lowered = (col: string) => sql.raw(`to_tsvector('simple', lower(${col} COLLATE "C"))`);
const reindexAscii = prepared(
  (_db, p) => sql<{ done: boolean }>`WITH src AS (${textsOf(sql`t.uid = ${p(0)}`)}),
  ins AS (
    INSERT INTO task_search (num, title, labels, description, comments, checklist, doc)
    SELECT num, title, labels, description, comments, checklist,
      setweight(${lowered('title')}, 'A') || setweight(${lowered('labels')}, 'B') || setweight(${lowered('description')}, 'C')
      || setweight(${lowered(`comments || ' ' || checklist`)}, 'D')
    FROM src WHERE (title || labels || description || comments || checklist) ~ '^[\\x01-\\x7f]*$'
    ${UPSERT}
    RETURNING num
  )
  SELECT EXISTS (SELECT 1 FROM ins) AS done FROM src`,
);

export async function removeFromIndex(db: Q, num: number): Promise<void> {
  await sql`DELETE FROM task_search WHERE num = ${num}`.execute(db);
}

/** The tsquery for the user's phrases (all must match); null when nothing searchable was typed. */
function tsQuery(phrases: Phrase[]): RawBuilder<unknown> | null {
  if (phrases.length === 0) return null;
  const parts = phrases.map((ph) => {
    const q = sql`phraseto_tsquery('simple', ${ph.words.join(' ')})`;
    // A prefix applies to the phrase's last word; a phrase the parser finds no word in stays empty.
    return ph.prefix ? sql`(CASE WHEN numnode(${q}) = 0 THEN ${q} ELSE (${q}::text || ':*')::tsquery END)` : q;
  });
  return sql`(${sql.join(parts, sql` && `)})`;
}

type Ranked = { num: number; rank: number };

const remembered = (db: Q, counts: CountCache | undefined, key: string, count: () => Promise<number>) => (counts ? counts.get(db, key, count) : count());

function matches(db: Q, tsq: RawBuilder<unknown>, filter: TaskFilter) {
  // task_search is this engine's own table, not in the shared schema types.
  const q = (db as Kysely<any>).selectFrom('task_search as s').innerJoin('tasks', 'tasks.num', 's.num').where(sql<boolean>`s.doc @@ ${tsq}`);
  return applyFilter(db, q, filter);
}

/** The squashed title and labels, exactly as the tasks_grams index is built on them (migration 6). */
const GRAMS = sql.raw(gramsPostgres('tasks'));

/**
 * Tasks whose squashed title or labels hold the squashed query (queries/substring.ts) and that no
 * word of the query matched, in number order after the cursor: the hits ranked below every word match.
 */
async function substringHits(
  db: Q,
  sq: string,
  tsq: RawBuilder<unknown> | null,
  wordKey: string,
  filter: TaskFilter,
  need: number,
  after: SearchAfter | undefined,
  counts: CountCache | undefined,
  wantTotal: boolean,
): Promise<{ page: Ranked[]; total: number }> {
  const base = () => {
    let q = db.selectFrom('tasks').where(sql<boolean>`${GRAMS} LIKE ${likePattern(sq)}`);
    q = applyFilter(db, q, filter);
    if (tsq) q = q.where(sql<boolean>`NOT EXISTS (SELECT 1 FROM task_search s WHERE s.num = tasks.num AND s.doc @@ ${tsq})`);
    return q;
  };
  let q = base().select(['tasks.num as num', sql<number>`${SUBSTRING_RANK}::float8`.as('rank')]);
  if (after && 'seen' in after && after.seen.length) q = q.where('tasks.num', 'not in', after.seen);
  if (after && 'rank' in after && after.rank >= SUBSTRING_RANK) q = q.where('tasks.num', '>', after.num);
  const page = need > 0 ? ((await q.orderBy('tasks.num').limit(need).execute()) as Ranked[]).map((r) => ({ num: Number(r.num), rank: Number(r.rank) })) : [];
  let total = page.length;
  if (wantTotal || page.length === need || after) {
    total = await remembered(db, counts, `substring:${sq}:${JSON.stringify(filter)}:${wordKey}`, async () => {
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
  const phrases = phrasesOf(query).map((ph) => ({ ...ph, words: ph.words.map(fold) }));
  const tsq = tsQuery(phrases);
  const sq = substringQuery(query);
  if (!tsq && !sq) return { hits: [], total: 0, consumed: [], more: false };
  let { page, total, more } = tsq ? await wordHits(db, tsq, phrases, filter, limit, after, counts) : { page: [] as Ranked[], total: 0, more: false };
  if (sq && !more) {
    // Once the word matches run out within a page, it fills with substring matches, ranked below
    // them; a page the word matches fill costs no substring work (docs/decisions.md).
    const subs = await substringHits(db, sq, tsq, JSON.stringify(phrases), filter, limit + 1 - page.length, after, counts, false);
    const all = [...page, ...subs.page];
    more = all.length > limit;
    page = all.slice(0, limit);
    total = total + subs.total;
  }
  const consumed = page.map((r) => ({ num: r.num, rank: r.rank }));
  if (page.length === 0) return { hits: [], total, consumed, more: false };
  const nums = page.map((r) => r.num);
  const rows = await summariesByNums(db, nums);
  const texts = new Map((await sql<Texts>`SELECT num, title, labels, description, comments, checklist FROM task_search WHERE num IN (${sql.join(nums)})`.execute(db)).rows.map((t) => [t.num, t]));
  const byWords = [...texts.values()].filter((t) => page.some((r) => r.num === t.num && r.rank < SUBSTRING_RANK));
  const marks: Marks = tsq && byWords.length ? await markPage(db, byWords, phrases, tsq, query) : new Map();
  for (const t of texts.values()) if (sq && !marks.has(t.num)) marks.set(t.num, substringMarks(sq, t.title, t.labels));
  const hits = page.flatMap((r) => {
    const task = rows.get(r.num);
    if (!task) return [];
    const m = marks.get(r.num) ?? { matchedFields: [], excerpt: '' };
    return [{ task, num: r.num, rank: r.rank, matchedFields: m.matchedFields, excerpt: m.excerpt.replace(/\s+/g, ' ').trim() }];
  });
  return { hits, total, consumed, more };
}

/** The page of word matches (one past it says whether more follow) and their exact total when it matters. */
async function wordHits(
  db: Q,
  tsq: RawBuilder<unknown>,
  phrases: Phrase[],
  filter: TaskFilter,
  limit: number,
  after: SearchAfter | undefined,
  counts: CountCache | undefined,
): Promise<{ page: Ranked[]; total: number; more: boolean }> {
  // Lower is better, as with bm25, so cursors compare ranks the same way on both engines.
  const rank = sql<number>`(-ts_rank(${WEIGHTS}, s.doc, ${tsq}))::float8`;
  // Every match is ranked inside the index's own table and sorted (its ORDER BY keeps the subquery
  // from being flattened); the task rows are then joined in rank order for the filter, so the join
  // stops once the page is full instead of reading the task row of every match (docs/decisions.md).
  let ranked = (db as Kysely<any>)
    .selectFrom('task_search as s')
    .select(['s.num as num', rank.as('rank')])
    .where(sql<boolean>`s.doc @@ ${tsq}`);
  if (after && 'seen' in after && after.seen.length) ranked = ranked.where('s.num', 'not in', after.seen);
  if (after && 'rank' in after) ranked = ranked.where(sql<boolean>`(${rank} > ${after.rank} OR (${rank} = ${after.rank} AND s.num > ${after.num}))`);
  const inOrder = (db as Kysely<any>).selectFrom(ranked.orderBy('rank').orderBy('s.num').as('r')).innerJoin('tasks', 'tasks.num', 'r.num').select(['r.num as num', 'r.rank as rank']);
  const q = applyFilter(db, inOrder, filter);
  const found = (await q
    .orderBy('r.rank')
    .orderBy('r.num')
    .limit(limit + 1)
    .execute()) as Ranked[];
  const more = found.length > limit;
  const page = more ? found.slice(0, limit) : found;
  let total = page.length;
  if (more || after) {
    total = await remembered(db, counts, `search:${JSON.stringify(phrases)}:${JSON.stringify(filter)}`, async () => {
      const c = await matches(db, tsq, filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(c.n);
    });
  }
  return { page, total, more };
}

type Marks = Map<number, { matchedFields: string[]; excerpt: string }>;

/**
 * Matched fields and an excerpt per hit. Latin text is marked in JavaScript (excerpts.ts, the
 * same words the query was built from); other scripts by the server, which tokenized them: a field
 * matches when its own vector does, and ts_headline cuts the excerpt from the best-weighted one.
 */
async function markPage(db: Q, texts: Texts[], phrases: Phrase[], tsq: RawBuilder<unknown>, query: string): Promise<Marks> {
  if (isPlainLatin(query) && texts.every((t) => FIELDS.every((f) => isPlainLatin(t[f])))) {
    return new Map(
      texts.map((t) => {
        const { matched, excerpt } = markHit(
          FIELDS.map((f) => t[f]),
          phrases,
        );
        return [t.num, { matchedFields: FIELDS.filter((_, i) => matched[i]), excerpt }];
      }),
    );
  }
  const out: Marks = new Map();
  for (const t of texts) {
    const folded = FIELDS.map((f) => fold(t[f]));
    const r = await sql<Record<string, boolean>>`SELECT ${sql.join(folded.map((f, i) => sql`to_tsvector('simple', ${f}) @@ ${tsq} AS ${sql.ref(`f${i}`)}`))}`.execute(db);
    const matched = FIELDS.filter((_, i) => r.rows[0]?.[`f${i}`] === true);
    const field = FIELDS.findIndex((f) => matched.includes(f));
    let excerpt = '';
    if (field >= 0) {
      const h = await sql<{
        h: string;
      }>`SELECT ts_headline('simple', ${folded[field]}, ${tsq}, 'StartSel=**, StopSel=**, MaxWords=16, MinWords=6, ShortWord=0, MaxFragments=1, FragmentDelimiter=\u2026') AS h`.execute(db);
      excerpt = h.rows[0]?.h ?? '';
    }
    out.set(t.num, { matchedFields: matched, excerpt });
  }
  return out;
}

const textsOf = (where: RawBuilder<unknown>) =>
  sql<Texts>`SELECT t.num, t.title, t.description,
      coalesce((SELECT string_agg(label, ' ' ORDER BY label) FROM task_labels WHERE task_uid = t.uid), '') AS labels,
      coalesce((SELECT string_agg(body, ' ' ORDER BY created_at, id) FROM comments WHERE task_uid = t.uid), '') AS comments,
      coalesce((SELECT string_agg(text, ' ' ORDER BY idx) FROM checklist_items WHERE task_uid = t.uid), '') AS checklist
    FROM tasks t WHERE ${where}`;

const pageTexts = (db: Q, where: RawBuilder<unknown>) => sql<Texts>`${textsOf(where)} ORDER BY t.num LIMIT 500`.execute(db);

const UPSERT = sql`ON CONFLICT (num) DO UPDATE SET title = EXCLUDED.title, labels = EXCLUDED.labels, description = EXCLUDED.description,
      comments = EXCLUDED.comments, checklist = EXCLUDED.checklist, doc = EXCLUDED.doc`;

/** Writes the index rows of a page of tasks in one statement (folded as reindexTask folds them). */
async function insertRows(db: Q, rows: Texts[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map(
    (t) => sql`(${t.num}, ${t.title}, ${t.labels}, ${t.description}, ${t.comments}, ${t.checklist},
    setweight(to_tsvector('simple', ${fold(t.title)}), 'A') || setweight(to_tsvector('simple', ${fold(t.labels)}), 'B')
    || setweight(to_tsvector('simple', ${fold(t.description)}), 'C') || setweight(to_tsvector('simple', ${fold(`${t.comments} ${t.checklist}`)}), 'D'))`,
  );
  await sql`INSERT INTO task_search (num, title, labels, description, comments, checklist, doc) VALUES ${sql.join(values)} ${UPSERT}`.execute(db);
}

/** Builds the index rows of every task (a workspace copied in), 500 tasks a round trip. */
export async function rebuildSearchIndex(db: Q): Promise<void> {
  await sql`DELETE FROM task_search`.execute(db);
  for (let after = 0; ; ) {
    const page = (await pageTexts(db, sql`t.num > ${after}`)).rows;
    if (page.length === 0) return;
    await insertRows(db, page);
    after = page[page.length - 1]!.num;
  }
}

/** The index rows of tasks an import just wrote, 500 a round trip. */
export async function indexNewTasks(db: Q, uids: string[]): Promise<void> {
  for (let i = 0; i < uids.length; i += 500) {
    const chunk = uids.slice(i, i + 500);
    await insertRows(db, (await pageTexts(db, sql`t.uid IN (${sql.join(chunk)})`)).rows);
  }
}
