/**
 * Reservations decide who may work where: two tasks whose `touches` overlap are never claimed at once.
 * A missed overlap lets two agents edit one file, so the property is "never missed": whenever some
 * file path matches both patterns, patternsOverlap says they overlap. The witness paths are built by
 * instantiating one pattern (so they often match the other), and checked with a plain matcher that
 * follows the documented rules one concrete path at a time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlapsBetween, patternsOverlap } from '../../src/core/rules/path-patterns.js';

/** Whether one concrete file path matches a pattern: `*` within a segment, `?` one character, `**` any whole segments, a plain path also covers what is below it. */
function matches(pattern: string, path: string): boolean {
  const parts = pattern.split('/').filter((s) => s !== '' && s !== '.');
  const pat = /[*?]/.test(pattern) ? parts : [...parts, '**'];
  const segs = path.split('/');
  const segment = (p: string, s: string) =>
    new RegExp(
      `^${p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')}$`,
    ).test(s);
  const go = (i: number, j: number): boolean => {
    if (i === pat.length) return j === segs.length;
    if (pat[i] === '**') return go(i + 1, j) || (j < segs.length && go(i, j + 1));
    return j < segs.length && segment(pat[i]!, segs[j]!) && go(i + 1, j + 1);
  };
  return go(0, 0);
}

const literal = fc.constantFrom('a', 'b', 'ab', 'x.ts', 'a.ts', 'src', 'api');
const piece = fc.constantFrom('a', 'b', '.ts', '*', '?', 'x');
const globSegment = fc.oneof(
  { weight: 3, arbitrary: literal },
  { weight: 2, arbitrary: fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.constant('**') },
);
const pattern = fc.array(globSegment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

/** A concrete path the pattern matches: stars and question marks filled in, `**` as zero or more segments, a plain path perhaps extended below. */
const instanceOf = (p: string) =>
  fc.tuple(fc.array(fc.constantFrom('', 'a', 'b', 'ab'), { minLength: 40, maxLength: 40 }), fc.array(fc.array(literal, { maxLength: 2 }), { minLength: 8, maxLength: 8 })).map(([fills, deeps]) => {
    let f = 0;
    let d = 0;
    const parts = p.split('/').flatMap((s) => (s === '**' ? deeps[d++ % deeps.length]! : [s.replace(/\*/g, () => fills[f++ % fills.length]!).replace(/\?/g, () => fills[f++ % fills.length]! || 'a')]));
    if (!/[*?]/.test(p)) parts.push(...deeps[7]!);
    return parts.filter(Boolean).join('/');
  });

/** A pattern that may match the path: some segments widened to `*`, `?` or `**`, perhaps cut short (a plain prefix covers what is below). */
const generalise = (path: string) =>
  fc.tuple(fc.array(fc.constantFrom('keep', 'keep', 'star', 'q', 'globstar', 'suffix'), { minLength: 12, maxLength: 12 }), fc.nat(12)).map(([moves, cut]) => {
    const segs = path.split('/');
    const out = segs.slice(0, Math.max(1, segs.length - (cut % 3))).map((s, i) => {
      const m = moves[i % moves.length];
      return m === 'star' ? '*' : m === 'q' ? s.replace(/^./, '?') : m === 'globstar' ? '**' : m === 'suffix' ? `*${s.slice(-2)}` : s;
    });
    return out.join('/');
  });

describe('path patterns', () => {
  it('never misses an overlap: a path matching both patterns means they overlap, either way round', () => {
    let witnessed = 0;
    fc.assert(
      fc.property(
        pattern.chain((a) => fc.tuple(fc.constant(a), instanceOf(a))).chain(([a, path]) => fc.tuple(fc.constant(a), fc.oneof(pattern, generalise(path)), fc.constant(path))),
        ([a, b, path]) => {
          if (path === '' || !matches(a, path)) return; // an instance that emptied every segment names no file
          if (!matches(b, path)) return;
          witnessed++;
          expect(patternsOverlap(a, b), `${a} and ${b} both match ${path}`).toBe(true);
          expect(patternsOverlap(b, a), `${b} and ${a} both match ${path}`).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
    // The property is only worth something if witnesses were found often.
    expect(witnessed).toBeGreaterThan(1000);
  });

  it('is symmetric, and every pattern overlaps itself', () => {
    fc.assert(
      fc.property(pattern, pattern, (a, b) => {
        expect(patternsOverlap(a, b)).toBe(patternsOverlap(b, a));
        expect(patternsOverlap(a, a)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers the cases agents meet', () => {
    const cases: Array<[string, string, boolean]> = [
      ['src/api', 'src/api/users.ts', true], // a directory reserves what is under it
      ['src/api', 'src/apix/users.ts', false], // …and not a sibling sharing its prefix
      ['src/api/users.ts', 'src/api', true],
      ['src/**/*.ts', 'src/api/users.ts', true],
      ['src/**/*.ts', 'src/users.ts', true], // ** may be no segment at all
      ['src/**/*.ts', 'docs/users.ts', false],
      ['src/*.ts', 'src/api/users.ts', false], // * stays inside one segment
      ['src/*.ts', 'src/*.js', false],
      ['src/*.ts', 'src/a*', true],
      ['**', 'anything/at/all.md', true],
      ['db/migrations/**', 'src/ledger', false],
      ['db/migrations/**', 'db', true], // reserving db covers every migration
      ['src/user?.ts', 'src/users.ts', true],
      ['src/user?.ts', 'src/user.ts', false],
      ['./src/api/', 'src/api/x.ts', true], // normalised: ./ and a trailing slash change nothing
    ];
    for (const [a, b, overlap] of cases) expect(patternsOverlap(a, b), `${a} vs ${b}`).toBe(overlap);
  });

  it('lists each overlapping pair once, mine first', () => {
    expect(overlapsBetween(['src/api', 'docs/**'], ['src/api/x.ts', 'README.md', 'docs/a.md'])).toEqual([
      { mine: 'src/api', theirs: 'src/api/x.ts' },
      { mine: 'docs/**', theirs: 'docs/a.md' },
    ]);
  });
});
