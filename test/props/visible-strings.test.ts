/**
 * Property: what the CLI shows of workspace text (src/cli/render/visible-text.ts) escapes every
 * terminal-active character wherever it sits in the output, keys included, also when its JSON scan
 * finds nothing to escape and hands the value back as it is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visibleStrings } from '../../src/cli/render/visible-text.js';

/** The rule, spelled by code point: C0 but tab and newline, DEL, C1, and the bidi controls. */
const unsafe = (c: number): boolean =>
  (c <= 0x1f && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) || c === 0x061c || c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);

const escape = (s: string): string =>
  [...s]
    .map((ch) => {
      const c = ch.codePointAt(0)!;
      if (!unsafe(c)) return ch;
      return c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    })
    .join('');

function reference(v: unknown): unknown {
  if (typeof v === 'string') return escape(v);
  if (Array.isArray(v)) return v.map(reference);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [escape(k), reference(x)]));
  return v;
}

// Text drawn mostly from the characters that matter: the unsafe ones, their JSON escapes' look-alikes
// (a backslash, "u00", "b", "r"), and ordinary letters.
const char = fc.constantFrom(
  'a',
  'Z',
  ' ',
  '\\',
  'u',
  '0',
  '1',
  'b',
  'r',
  'f',
  '\n',
  '\t',
  '\r',
  '\b',
  '\f',
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u061c',
  '\u200e',
  '\u202e',
  '\u2066',
  'é',
  '名',
);
const text = fc.array(char, { maxLength: 12 }).map((cs) => cs.join(''));
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(text, tie('node'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).node;

describe('visibleStrings', () => {
  it('escapes every terminal-active character in strings and keys, at any depth, and nothing else', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(visibleStrings(v)).toEqual(reference(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves the value it is given as it was', () => {
    fc.assert(
      fc.property(value, (v) => {
        const before = structuredClone(v);
        visibleStrings(v);
        expect(v).toEqual(before);
      }),
    );
  });
});
