/**
 * Property: search hits' matched fields are exactly the columns FTS5's own highlight() marks.
 * - Plain Latin text is marked in JavaScript (store/sqlite/excerpts.ts): for random texts (case,
 *   diacritics precomposed and decomposed, µ and ſ, punctuation, digits, underscores) and random
 *   queries (words, "phrases", prefixes*) through the same parser, it agrees with highlight().
 * - Through search_tasks on a real workspace, with other scripts mixed in (Devanagari, Cyrillic,
 *   Greek with final sigma, Arabic, Japanese), where FTS5 marks the page itself: matched fields
 *   equal highlight() over the workspace's own index, and the excerpt highlights what one of them holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/sqlite/native.js';
import { toFtsQuery } from '../../src/store/sqlite/fts-query.js';
import { isPlainLatin, markHit, phrasesOf } from '../../src/store/sqlite/excerpts.js';
import { tempCairn } from '../helpers/workspace.js';

const LATIN = [
  'zebra',
  'Zebra',
  'ZEBRA',
  'crossing',
  'crème',
  'creme',
  'brûlée',
  'Brulee',
  'cre\u0300me',
  'naïve',
  'auth',
  'authentication',
  'Authorize',
  'search',
  'index',
  'indexes',
  'foo_bar',
  'foo',
  'bar',
  'API-12',
  'api',
  '12',
  'v2',
  '2026',
  'über',
  'Straße',
  'strasse',
  'œuvre',
  'ǅemal',
  'µs',
  'ſun',
  'sun',
  'İstanbul',
  'istanbul',
  'ø',
  'đa',
  'da',
  'x',
  '²',
];
const OTHER = ['μs', 'a\u0332b', 'भारतीय', 'भारत', 'мой', 'мои', 'йод', 'иод', 'ΟΔΟΣΤΡΩΜΑ', 'ΟΔΟΣ', 'οδός', 'أحمد', 'احمد', 'ガス', 'カス', '日本語', 'токен'];
const SEPARATORS = [' ', ' ', ' ', ', ', '. ', '-', '/', '\n', ' (', ') ', ' "', '" ', ' — '];
const textOf = (words: readonly string[]) =>
  fc.array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(...SEPARATORS)), { maxLength: 30 }).map((parts) =>
    parts
      .map(([w, s]) => w + s)
      .join('')
      .trim(),
  );
const queryOf = (words: readonly string[]) =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...words),
        fc.constantFrom(...words).map((w) => `${[...w].slice(0, Math.max(1, Math.ceil([...w].length / 2))).join('')}*`),
        fc.array(fc.constantFrom(...words), { minLength: 2, maxLength: 3 }).map((ws) => `"${ws.join(' ')}"`),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((ps) => ps.join(' '));

const FIELDS = ['title', 'labels', 'description', 'comments', 'checklist'] as const;
const highlightSql = (table: string) => `SELECT rowid, ${FIELDS.map((_, i) => `highlight(${table}, ${i}, char(1), '') AS f${i}`).join(', ')} FROM ${table} WHERE ${table} MATCH ?`;
const markedFields = (m: Record<string, unknown>) => FIELDS.filter((_, i) => String(m[`f${i}`]).includes('\u0001'));

describe('property: matched fields equal FTS5 highlight()', () => {
  it('plain Latin text, marked in JavaScript', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE s USING fts5(title, labels, description, comments, checklist, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`);
    const insert = db.prepare('INSERT INTO s (rowid, title, labels, description, comments, checklist) VALUES (?, ?, ?, ?, ?, ?)');
    const text = textOf(LATIN);
    try {
      fc.assert(
        fc.property(fc.array(fc.tuple(text, text, text, text, text), { minLength: 1, maxLength: 8 }), queryOf(LATIN), (rows, q) => {
          db.exec('DELETE FROM s');
          rows.forEach((r, i) => insert.run(i + 1, ...r));
          const match = toFtsQuery(q);
          if (!match) return;
          expect(isPlainLatin(q) && rows.every((r) => r.every(isPlainLatin))).toBe(true);
          const phrases = phrasesOf(q);
          for (const m of db.prepare(highlightSql('s')).all(match) as Array<Record<string, string | number>>) {
            const texts = rows[Number(m.rowid) - 1]!;
            const want = markedFields(m);
            const { matched, excerpt } = markHit(texts, phrases);
            expect(
              FIELDS.filter((_, i) => matched[i]),
              `query ${JSON.stringify(q)} on ${JSON.stringify(texts)}`,
            ).toEqual(want);
            const shown = /\*\*(.+?)\*\*/s.exec(excerpt)?.[1];
            expect(shown, `excerpt ${JSON.stringify(excerpt)}`).toBeDefined();
            expect(want.some((f) => texts[FIELDS.indexOf(f)]!.includes(shown!))).toBe(true);
          }
        }),
        { numRuns: 400 },
      );
    } finally {
      db.close();
    }
  });

  // The timeout bounds a hang, not a speed: the runs take seconds, ten times longer on a loaded two-core machine.
  it('any script, through search_tasks on a workspace', { timeout: 600_000 }, async () => {
    const words = [...LATIN.slice(0, 12), ...OTHER];
    const text = textOf(words);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, text, text), { minLength: 1, maxLength: 6 }), queryOf(words), async (rows, q) => {
        const c = tempCairn();
        try {
          await c.call('create_project', { key: 'API', name: 'API' });
          for (const [title, description, item] of rows) {
            await c.call('create_task', { project: 'API', title: title || 'untitled', description, checklist: item ? [item] : [] });
          }
          const { results } = await c.call('search_tasks', { query: q, limit: 100 });
          const raw = new Database(c.ws.db, { readonly: true, fileMustExist: true });
          const match = toFtsQuery(q);
          const want = new Map((match ? (raw.prepare(highlightSql('task_search')).all(`(${match})`) as Array<Record<string, string | number>>) : []).map((m) => [Number(m.rowid), markedFields(m)]));
          const nums = new Map(
            (raw.prepare("SELECT p.key || '-' || t.seq AS id, t.num FROM tasks t JOIN projects p ON p.uid = t.project_uid").all() as Array<{ id: string; num: number }>).map((r) => [r.id, r.num]),
          );
          raw.close();
          // Word hits (rank below zero); substring hits after them are test/core/substring-search.test.ts's subject.
          const words = results.filter((r) => r.rank < 0);
          expect(words.length, `hits for ${JSON.stringify(q)}`).toBe(want.size);
          for (const r of words) {
            expect(r.matchedFields, `${JSON.stringify(q)} on ${r.task.id}`).toEqual(want.get(nums.get(r.task.id)!));
            expect(r.excerpt, `excerpt for ${JSON.stringify(q)}`).toMatch(/\*\*.+?\*\*/s);
          }
        } finally {
          await c.done();
        }
      }),
      { numRuns: 60 },
    );
  });
});
