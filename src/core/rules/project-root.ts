/** Which project a directory belongs to: the one whose root contains it, deepest root first. Pure, so every surface decides alike. */
import { resolve, sep } from 'node:path';

const contains = (root: string, path: string): boolean => {
  const r = resolve(root);
  const p = resolve(path);
  return p === r || p.startsWith(r.endsWith(sep) ? r : r + sep);
};

/** The key of the project whose root contains one of the paths (the deepest root wins), if any. */
export function projectForPaths(projects: ReadonlyArray<{ key: string; root: string | null }>, paths: readonly string[]): string | undefined {
  let best: { key: string; len: number } | undefined;
  for (const p of projects) {
    if (!p.root || !paths.some((x) => contains(p.root!, x))) continue;
    if (!best || p.root.length > best.len) best = { key: p.key, len: p.root.length };
  }
  return best?.key;
}
