/** Turns what a user types into a safe FTS5 MATCH expression: every word quoted, `word*` kept as a prefix, "phrases" kept. */
import { lazy } from '../../core/model/lazy.js';

// Built on first use: a Unicode property class is a fraction of a millisecond of every command's start.
const WORD = lazy(() => /[\p{L}\p{N}_]+/gu);

/** What the user typed, split into quoted phrases and bare tokens; a bare token ending in `*` is a prefix. */
export function queryParts(input: string): Array<{ text: string; prefix: boolean }> {
  return [...input.matchAll(/"([^"]*)"?|(\S+)/g)].map((m) => ({ text: m[1] ?? m[2] ?? '', prefix: m[2] !== undefined && /\*+$/.test(m[2]) }));
}

/** Returns null when the input has no searchable words (only punctuation or FTS operators). */
export function toFtsQuery(input: string): string | null {
  const terms: string[] = [];
  for (const { text, prefix } of queryParts(input)) {
    const words = text.match(WORD()) ?? [];
    if (words.length === 0) continue;
    // Words joined by punctuation (foo-bar, API-12) must sit next to each other, as the tokenizer split them.
    const quoted = `"${words.join(' ')}"`;
    terms.push(prefix ? `${quoted}*` : quoted);
  }
  return terms.length ? terms.join(' ') : null;
}
