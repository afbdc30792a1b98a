// A seeded PRNG and sampling helpers, so generated workspaces are the same on every machine.

/** mulberry32: small, fast, good enough for test data. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    /** Zipf pick (frequency ∝ 1/rank, as in real text): log-uniform over ranks 1…n. */
    zipf: (list) => list[Math.min(list.length - 1, Math.floor(Math.exp(next() * Math.log(list.length + 1))) - 1)],
    /** Picks by weight from [[value, weight], ...]. */
    weighted: (pairs) => {
      let r = next() * pairs.reduce((s, [, w]) => s + w, 0);
      for (const [v, w] of pairs) if ((r -= w) < 0) return v;
      return pairs[pairs.length - 1][0];
    },
  };
}
