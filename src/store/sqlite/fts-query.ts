/** Turns what a user types into a safe FTS5 MATCH expression: every word quoted, `word*` kept as a prefix, "phrases" kept. */

const WORD = /[\p{L}\p{N}_]+/gu;

/** Returns null when the input has no searchable words (only punctuation or FTS operators). */
export function toFtsQuery(input: string): string | null {
  const terms: string[] = [];
  for (const m of input.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const phrase = m[1];
    const token = m[2];
    const words = (phrase ?? token ?? '').match(WORD) ?? [];
    if (words.length === 0) continue;
    const prefix = token !== undefined && /\*+$/.test(token);
    // Words joined by punctuation (foo-bar, API-12) must sit next to each other, as the tokenizer split them.
    const quoted = `"${words.join(' ')}"`;
    terms.push(prefix ? `${quoted}*` : quoted);
  }
  return terms.length ? terms.join(' ') : null;
}
