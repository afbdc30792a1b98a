/**
 * Paths inside a repository: handoff anchors (absolute or repo-relative in, repo-relative out) and
 * the `.cairn/` workspace that holds a path. A path that ends up outside the repository — through
 * `..`, an absolute path elsewhere, or a symlink pointing out — is refused, never stored.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CairnError } from '../errors.js';

export const WORKSPACE_DIR = '.cairn';
export const WORKSPACE_DB = 'cairn.db';

/** The real path of `p`, or of its deepest existing ancestor with the rest appended (so a symlinked parent is followed). */
export function realish(p: string): string {
  const rest: string[] = [];
  let cur = resolve(p);
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch {
      const up = dirname(cur);
      if (up === cur) return resolve(p);
      rest.push(cur.slice(up.length).replace(/^[\\/]+/, ''));
      cur = up;
    }
  }
}

const inside = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

function outside(anchor: string, root: string, why: string, what = 'Anchor'): CairnError {
  return new CairnError('ANCHOR_OUTSIDE_REPOSITORY', `${what} "${anchor}" is outside the target repository ${root} (${why}). ${what}s must name files inside it. Nothing was changed.`, {
    suggestions: ['Give the path relative to the target repository root (e.g. src/index.ts)', `Leave the ${what.toLowerCase()} out`],
    details: { anchor, repository: root },
  });
}

/**
 * Anchors as repo-relative paths with `/` separators. `root` null: no repository is known, so only
 * relative paths that stay inside are accepted (checked lexically).
 */
export function normalizeAnchors(anchors: readonly string[], root: string | null, what = 'Anchor'): string[] {
  const out: string[] = [];
  for (const raw of anchors) {
    const a = raw.trim();
    if (!a) continue;
    if (a.includes('\0')) throw outside(raw, root ?? '(unknown)', 'it contains a NUL character', what);
    let rel: string;
    if (root) {
      const realRoot = realish(root);
      const abs = isAbsolute(a) ? a : resolve(root, a);
      const lexical = relative(resolve(root), abs);
      const viaReal = isAbsolute(a) && inside(realRoot, realish(abs)) ? relative(realRoot, realish(abs)) : lexical;
      if (viaReal === '..' || viaReal.startsWith(`..${sep}`) || isAbsolute(viaReal)) throw outside(raw, root, isAbsolute(a) ? 'an absolute path elsewhere' : 'it climbs out with ..', what);
      // Follow symlinks: where the file really is must be inside the real root too.
      if (!inside(realRoot, realish(join(realRoot, viaReal)))) throw outside(raw, root, 'a symlink points out of it', what);
      rel = viaReal;
    } else {
      if (isAbsolute(a)) throw outside(raw, '(unknown)', 'an absolute path, and the target has no repository root to compare with', what);
      const norm = relative('/r', resolve('/r', a));
      if (norm === '..' || norm.startsWith(`..${sep}`)) throw outside(raw, '(unknown)', 'it climbs out with ..', what);
      rel = norm;
    }
    const posix = rel.split(sep).join('/') || '.';
    if (!out.includes(posix)) out.push(posix);
  }
  return out;
}

/**
 * A task's anchors as create, update and import store them: repo-relative, inside the project's
 * repository when its root is known (an absolute path inside it is made relative), else relative
 * paths that do not climb out. The rule `submit_handoff` applies, on every surface.
 */
export function taskAnchors(anchors: readonly string[], projectRoot: string | null): string[] {
  return normalizeAnchors(anchors, projectRoot && isAbsolute(projectRoot) ? projectRoot : null);
}

/** A task's touches (paths or globs it edits), held to the anchors' rule; duplicates dropped. */
export function taskTouches(touches: readonly string[], projectRoot: string | null): string[] {
  return [...new Set(normalizeAnchors(touches, projectRoot && isAbsolute(projectRoot) ? projectRoot : null, 'Path'))];
}

/** The repository root whose `.cairn/` folder holds `path` (the path itself or its nearest ancestor), if any. */
export function workspaceRootOf(path: string): string | undefined {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    const candidate = join(dir, WORKSPACE_DIR);
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The repository folder of a workspace database at `<root>/.cairn/cairn.db`, else undefined. */
export function repositoryOfDb(dbPath: string): string | undefined {
  const dir = dirname(resolve(dbPath));
  return dir.endsWith(`${sep}${WORKSPACE_DIR}`) ? dirname(dir) : undefined;
}

export const isPathLike = (target: string): boolean => isAbsolute(target) || target.startsWith('./') || target.startsWith('../') || target === '.' || target === '..' || target.startsWith('~/');

/**
 * A project's repository folder: its root (a relative root, as `--root .` stores it, is read against
 * the workspace's repository), else the workspace's repository, else null.
 */
export function projectRootOf(root: string | null, workspaceRoot: string | undefined): string | null {
  if (root) return isAbsolute(root) ? root : resolve(workspaceRoot ?? '.', root);
  return workspaceRoot ?? null;
}
