/**
 * Project keys made from names (a folder, a tool's project name, a DevPlanner project): one rule for
 * every importer and profile, so "Café" is CAFE wherever it comes from.
 */

/** The name's letters as a key: accents dropped (Café → CAFE), upper-cased, at most 10; '' when fewer than 2. */
export function keyLetters(name: string): string {
  const letters = name
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase()
    .slice(0, 10);
  return letters.length >= 2 ? letters : '';
}

/** The first letters of the name's words (Media Manager → MM), at most 10; '' when fewer than 2. */
export function keyInitials(name: string): string {
  const initials = name
    .normalize('NFKD')
    .replace(/[^A-Za-z\s]/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('')
    .slice(0, 10);
  return initials.length >= 2 ? initials : '';
}

/** keyLetters of the name, or `fallback` when it has too few letters. */
export function keyFrom(name: string, fallback: string): string {
  return keyLetters(name) || fallback;
}

/** Keys to try in order while the first ones are taken: each base, then each with a letter appended (or put in place of its tenth). */
export function keyVariants(bases: readonly string[]): string[] {
  const out = [...new Set(bases.filter(Boolean))];
  for (const b of [...out]) for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') out.push(b.length < 10 ? `${b}${c}` : `${b.slice(0, 9)}${c}`);
  return [...new Set(out)];
}
