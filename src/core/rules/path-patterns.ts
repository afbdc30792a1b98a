/**
 * The paths a task touches (`touches`): repository-relative paths or globs, and whether two of them
 * can name one file. `*` matches within one path segment, `?` one character, `**` any number of
 * whole segments (none included). A pattern without a wildcard names that path and everything below
 * it (`src/api` reserves `src/api/x.ts`), so a directory is reserved by naming it.
 */

/** Splits a normalised pattern into segments; a plain path gets `**` appended (itself and everything under it). */
function segments(pattern: string): string[] {
  const parts = pattern.split('/').filter((s) => s !== '' && s !== '.');
  return /[*?]/.test(pattern) ? parts : [...parts, '**'];
}

/** Whether two one-segment wildcard patterns (`*`, `?`, literals) can match the same name. */
function segmentsMeet(p: string, q: string): boolean {
  const memo = new Map<number, boolean>();
  const meet = (i: number, j: number): boolean => {
    const key = i * (q.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r: boolean;
    if (i === p.length && j === q.length) r = true;
    // A star matches nothing, or takes the next character the other side produces (a star there matching nothing is the same move).
    else if (p[i] === '*') r = meet(i + 1, j) || (j < q.length && meet(i, j + 1));
    else if (q[j] === '*') r = meet(i, j + 1) || (i < p.length && meet(i + 1, j));
    else if (i === p.length || j === q.length) r = false;
    else r = (p[i] === q[j] || p[i] === '?' || q[j] === '?') && meet(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return meet(0, 0);
}

/** Whether some file path matches both patterns: two reservations overlap. */
export function patternsOverlap(a: string, b: string): boolean {
  const A = segments(a);
  const B = segments(b);
  const memo = new Map<number, boolean>();
  const meet = (i: number, j: number): boolean => {
    const key = i * (B.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r: boolean;
    if (i === A.length && j === B.length) r = true;
    else if (A[i] === '**') r = meet(i + 1, j) || (j < B.length && meet(i, j + 1));
    else if (B[j] === '**') r = meet(i, j + 1) || (i < A.length && meet(i + 1, j));
    else if (i === A.length || j === B.length) r = false;
    else r = segmentsMeet(A[i]!, B[j]!) && meet(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return meet(0, 0);
}

/** The pairs of patterns, one from each list, that overlap. */
export function overlapsBetween(mine: readonly string[], theirs: readonly string[]): Array<{ mine: string; theirs: string }> {
  const out: Array<{ mine: string; theirs: string }> = [];
  for (const m of mine) for (const t of theirs) if (patternsOverlap(m, t)) out.push({ mine: m, theirs: t });
  return out;
}
