/**
 * Matched fields and highlighted excerpts for a page of search hits, computed here from the hits'
 * stored text when the text is Latin script. FTS5's highlight() and snippet() need the MATCH to walk
 * every match between the page's lowest and highest rowid (a large part of a search in a big
 * workspace; narrower rowid constraints re-run the MATCH per row and cost more), while finding the
 * query's phrases in a page of text is a small fraction of that.
 *
 * Tokens must be the index's (unicode61, remove_diacritics 2), and this file reproduces them only
 * for text whose letters and digits are ASCII or Latin (and its diacritics U+0300–U+0331): a token starts
 * on a letter or digit and runs through letters, digits and those diacritics; diacritics are removed
 * (by canonical decomposition) and case folded (µ → μ and ſ → s as FTS5 folds them). Beyond that
 * range FTS5's rules differ by script (which marks end a token, which letters lose marks, final
 * sigma), so search.ts has FTS5 itself mark a page with such letters (`isPlainLatin`). A differential property
 * test checks both against FTS5's highlight() (test/props/search-excerpts.test.ts).
 */

import { lazy } from '../../core/model/lazy.js';
import { queryParts } from './fts-query.js';

const ASCII = /^[\x00-\x7f]*$/;

// A letter, digit, mark or private-use character outside ASCII, Latin-1 Supplement, Latin
// Extended-A and -B, the combining diacritics FTS5 keeps inside a token, and Latin Extended
// Additional. Punctuation, symbols and emoji separate tokens in both tokenizers, whatever the block.
// (Set difference needs the `v` flag, which Node 20 has but this project's ES2022 target does not spell.)
// Unicode property classes cost a fraction of a millisecond to build: these are made on first use,
// not by every command that opens a workspace.
const OTHER_SCRIPT = lazy(() => new RegExp('[[\\p{L}\\p{N}\\p{M}\\p{Co}]--[\\u0000-\\u024f\\u0300-\\u0331\\u1e00-\\u1eff]]', 'v'));

/** Whether this file tokenizes `text` exactly as the index does. */
export const isPlainLatin = (text: string): boolean => ASCII.test(text) || !OTHER_SCRIPT().test(text);

/** One query phrase: its words (already folded) and whether the last one is a prefix. */
export interface Phrase {
  words: string[];
  prefix: boolean;
}

interface Token {
  start: number;
  end: number;
  norm: string;
}

// A letter or digit, then letters, digits and the combining diacritics U+0300–U+0331 (plain Latin text only).
const TOKEN = lazy(() => /[\p{L}\p{N}][\p{L}\p{N}\u0300-\u0331]*/gu);
// The same tokens in ASCII text, without building the Unicode classes (most text, and most searches).
const ASCII_TOKEN = /[A-Za-z0-9]+/g;
const MARKS = /[\u0300-\u036f]/g;
// Case folds FTS5 makes that lower-casing does not (in the plain-Latin range).
const FOLD: Record<string, string> = { '\u00b5': '\u03bc', '\u017f': 's' };

export function fold(word: string): string {
  if (ASCII.test(word)) return word.toLowerCase();
  return word
    .normalize('NFD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(/[\u00b5\u017f]/g, (c) => FOLD[c]!);
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(ASCII.test(text) ? ASCII_TOKEN : TOKEN())) out.push({ start: m.index, end: m.index + m[0].length, norm: fold(m[0]) });
  return out;
}

/** The phrases of a search as the user typed it (the parse fts-query.ts makes the MATCH from), folded like the index. */
export function phrasesOf(input: string): Phrase[] {
  return queryParts(input)
    .map(({ text, prefix }) => ({ words: tokenize(text).map((t) => t.norm), prefix }))
    .filter((p) => p.words.length > 0);
}

/** [first, last] token index of every phrase instance in `tokens`, with its phrase's number. */
function instances(tokens: Token[], phrases: Phrase[]): Array<{ first: number; last: number; phrase: number }> {
  const out: Array<{ first: number; last: number; phrase: number }> = [];
  phrases.forEach((p, phrase) => {
    const n = p.words.length;
    for (let i = 0; i + n <= tokens.length; i++) {
      let ok = true;
      for (let k = 0; k < n && ok; k++) {
        const word = p.words[k]!;
        const tok = tokens[i + k]!.norm;
        ok = p.prefix && k === n - 1 ? tok.startsWith(word) : tok === word;
      }
      if (ok) out.push({ first: i, last: i + n - 1, phrase });
    }
  });
  return out.sort((a, b) => a.first - b.first || a.last - b.last);
}

const WINDOW = 16;

/**
 * The best window of WINDOW tokens in the field most worth showing, with each phrase instance
 * wrapped in ** and … where the text goes on: FTS5's snippet() scoring, 1000 for each distinct
 * phrase in the window plus 1 for each further instance; on a tie, the first candidate tried wins
 * (windows starting at an instance before those ending at it, in text order).
 */
function excerptOf(fields: Array<{ text: string; tokens: Token[]; hits: ReturnType<typeof instances> }>): string {
  let best: { score: number; field: number; start: number } | undefined;
  fields.forEach((f, field) => {
    for (const h of f.hits) {
      // Windows that start at the instance, or end at it: the candidates FTS5 tries too.
      for (const start of [h.first, Math.max(0, h.last - WINDOW + 1)]) {
        const end = start + WINDOW - 1;
        const seen = new Set<number>();
        let score = 0;
        for (const x of f.hits) {
          if (x.first < start || x.last > end) continue;
          score += seen.has(x.phrase) ? 1 : 1000;
          seen.add(x.phrase);
        }
        if (!best || score > best.score) best = { score, field, start };
      }
    }
  });
  if (!best) {
    // No instance (cannot happen for a real hit): the title's first words.
    const f = fields[0]!;
    return f.tokens.length ? f.text.slice(f.tokens[0]!.start, f.tokens[Math.min(WINDOW, f.tokens.length) - 1]!.end) : f.text;
  }
  const f = fields[best.field]!;
  // Keep the window inside the field; shift it back if it would run past the end.
  const start = Math.max(0, Math.min(best.start, f.tokens.length - WINDOW));
  const end = Math.min(f.tokens.length, start + WINDOW) - 1;
  let out = start > 0 ? '…' : '';
  let at = f.tokens[start]!.start;
  for (const h of f.hits) {
    if (h.first < start || h.last > end || f.tokens[h.first]!.start < at) continue;
    out += `${f.text.slice(at, f.tokens[h.first]!.start)}**${f.text.slice(f.tokens[h.first]!.start, f.tokens[h.last]!.end)}**`;
    at = f.tokens[h.last]!.end;
  }
  out += f.text.slice(at, f.tokens[end]!.end);
  if (end < f.tokens.length - 1) out += '…';
  return out;
}

/** Which of `fields` (in order) hold a phrase of the query, and an excerpt that shows the best of them. */
export function markHit(texts: readonly string[], phrases: Phrase[]): { matched: boolean[]; excerpt: string } {
  if (texts.length === 0) return { matched: [], excerpt: '' };
  const fields = texts.map((text) => {
    const tokens = tokenize(text);
    return { text, tokens, hits: instances(tokens, phrases) };
  });
  return { matched: fields.map((f) => f.hits.length > 0), excerpt: excerptOf(fields) };
}
