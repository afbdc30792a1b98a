/** "Did you mean" ranking for not-found ids and names: edit distance plus shared-prefix bonus. */

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** The `limit` candidates closest to `wanted` (case-insensitive), closest first; far-off ones are dropped. */
export function closest(wanted: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = wanted.toLowerCase();
  const scored: Array<[string, number]> = [];
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d <= Math.max(2, Math.ceil(w.length / 2))) scored.push([c, d]);
  }
  return scored
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([c]) => c);
}
