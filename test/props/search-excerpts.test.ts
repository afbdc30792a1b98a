/**
 * Property: search hits' matched fields, computed in JavaScript from the hit's stored text
 * (store/sqlite/excerpts.ts), are exactly the columns FTS5's own highlight() marks, for random
 * texts (case, diacritics precomposed and decomposed, punctuation, digits, underscores, non-Latin
 * scripts) and random queries (words, "phrases", prefixes*) through the same query parser. The
 * excerpt shows a highlighted instance taken from one of the matched fields.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/sqlite/native.js';
import { toFtsQuery } from '../../src/store/sqlite/fts-query.js';
import { markHit, phrasesOf } from '../../src/store/sqlite/excerpts.js';

const WORDS = [
  'zebra', 'Zebra', 'ZEBRA', 'crossing', 'crème', 'creme', 'brûlée', 'Brulee', 'cre\u0300me', 'naïve', 'auth', 'authentication', 'Authorize',
  'search', 'index', 'indexes', 'foo_bar', 'foo', 'bar', 'API-12', 'api', '12', 'v2', '2026', 'über', 'Straße', '日本語', 'токен', 'œuvre', 'ǅemal', 'x',
];
const SEPARATORS = [' ', ' ', ' ', ', ', '. ', '-', '/', '\n', ' (', ') ', ' "', '" ', ' — '];
const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 30 })
  .map((parts) => parts.map(([w, s]) => w + s).join('').trim());
const queryPart = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.constantFrom(...WORDS).map((w) => `${w.slice(0, Math.max(1, Math.ceil(w.length / 2)))}*`),
  fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 3 }).map((ws) => `"${ws.join(' ')}"`),
);
const query = fc.array(queryPart, { minLength: 1, maxLength: 3 }).map((ps) => ps.join(' '));

const FIELDS = ['title', 'labels', 'description', 'comments', 'checklist'] as const;

describe('property: matched fields equal FTS5 highlight()', () => {
  it('for random texts and queries', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE s USING fts5(title, labels, description, comments, checklist, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`);
    const insert = db.prepare('INSERT INTO s (rowid, title, labels, description, comments, checklist) VALUES (?, ?, ?, ?, ?, ?)');
    try {
      fc.assert(
        fc.property(fc.array(fc.tuple(text, text, text, text, text), { minLength: 1, maxLength: 8 }), query, (rows, q) => {
          db.exec('DELETE FROM s');
          rows.forEach((r, i) => insert.run(i + 1, ...r));
          const match = toFtsQuery(q);
          if (!match) return;
          const marked = db
            .prepare(`SELECT rowid, ${FIELDS.map((_, i) => `highlight(s, ${i}, char(1), '') AS f${i}`).join(', ')} FROM s WHERE s MATCH ?`)
            .all(match) as Array<Record<string, string | number>>;
          const phrases = phrasesOf(q);
          for (const m of marked) {
            const texts = rows[Number(m.rowid) - 1]!;
            const want = FIELDS.filter((_, i) => String(m[`f${i}`]).includes('\u0001'));
            const { matched, excerpt } = markHit(texts, phrases);
            expect(FIELDS.filter((_, i) => matched[i]), `query ${JSON.stringify(q)} on ${JSON.stringify(texts)}`).toEqual(want);
            // The excerpt highlights text that one of the matched fields holds.
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
});
