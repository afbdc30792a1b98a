/**
 * Substring search, so "auth" finds "OAuth" and "darkmode" finds "dark mode": a task's title and labels
 * squashed (lower case, separators removed) are matched against the squashed query with a trigram
 * index, FTS5's trigram tokenizer on SQLite (task_grams, kept by triggers) and pg_trgm on
 * PostgreSQL (an expression index on tasks). Both engines squash with the same characters, so they
 * find the same tasks. Hits rank below every whole-word match (rank SUBSTRING_RANK).
 */

/** Characters a squash removes: whitespace and the separators people type between words, plus the JSON of rel_labels. */
export const SQUASH_CHARS = ' \t\n\r-_./:,;()[]{}"\'#|%*!?+=&@<>~`^$\\';

/** Substring hits rank after every whole-word hit (bm25 and -ts_rank are always below zero). */
export const SUBSTRING_RANK = 1;

/** Shortest squashed query that is matched as a substring (a trigram index answers three characters and more). */
export const MIN_SUBSTRING = 3;

const SQUASH_SET = new Set([...SQUASH_CHARS]);

/** Text as the index holds it: lower case, the SQUASH_CHARS removed. */
export function squash(text: string): string {
  let out = '';
  for (const ch of text.toLowerCase()) if (!SQUASH_SET.has(ch)) out += ch;
  return out;
}

/** The squashed query to match as a substring, or null when it is too short to (under MIN_SUBSTRING characters). */
export function substringQuery(query: string): string | null {
  const sq = squash(query);
  return [...sq].length >= MIN_SUBSTRING ? sq : null;
}

/** SQLite: `expr` squashed (lower() folds ASCII; the trigram tokenizer folds the rest). */
export function squashSqlite(expr: string): string {
  let out = `lower(${expr})`;
  for (const ch of SQUASH_CHARS) out = `replace(${out}, ${sqlString(ch)}, '')`;
  return out;
}

/** PostgreSQL: `expr` squashed (translate deletes every character without a counterpart). */
export function squashPostgres(expr: string): string {
  return `translate(lower(${expr}), ${sqlString(SQUASH_CHARS)}, '')`;
}

/** What the trigram index holds for a task: squashed title, a bar (never in a squashed query, so no match spans both), squashed labels. */
export const gramsSqlite = (t: string) => `${squashSqlite(`${t}.title`)} || '|' || ${squashSqlite(`${t}.rel_labels`)}`;
/** `t`: the table's name, or '' for bare columns (the index expression, which a query must repeat exactly). */
export const gramsPostgres = (t: string) => {
  const col = (c: string) => (t ? `${t}.${c}` : c);
  return `${squashPostgres(col('title'))} || '|' || ${squashPostgres(col('rel_labels'))}`;
};

/** A LIKE pattern for a squashed query (which holds no % or _: both are squashed away). */
export const likePattern = (sq: string) => `%${sq}%`;

/** Which of a hit's fields hold the substring, and an excerpt (its title). */
export function substringMarks(sq: string, title: string, labels: string): { matchedFields: string[]; excerpt: string } {
  const matchedFields = [...(squash(title).includes(sq) ? ['title'] : []), ...(squash(labels).includes(sq) ? ['labels'] : [])];
  return { matchedFields, excerpt: title };
}

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
