/**
 * The one decision of which project a place belongs to — the CLI's working directory, an MCP
 * server's working directory or client roots (stdio and HTTP), a profile's project path. Roots and
 * places are compared as real absolute paths (symlinks resolved); the deepest root wins
 * (rules/project-root.ts). Roots are stored absolute and real (`storedRoot`); a relative one left
 * by an older Cairn (`--root .` was stored as typed) is read against the workspace's repository
 * folder, the parent of `.cairn/`, never against the reader's own directory. A place in a linked git
 * worktree also counts as the same place in the main checkout.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Context } from '../context.js';
import type { Store } from '../ports.js';
import { projectForPaths } from '../rules/project-root.js';
import { inMainCheckout } from './git-facts.js';
import { realish, repositoryOfDb } from '../places/repo-paths.js';

export interface RootedProject {
  key: string;
  root: string | null;
}

/** The repository folder of a store's workspace (`<repo>/.cairn/cairn.db`), if it is one. */
export const workspaceRepository = (store: Pick<Store, 'location'>): string | undefined => repositoryOfDb(store.location);

/**
 * The key of the project whose root holds one of `places` (deepest root first), if any.
 * `workspaceRoot`: where relative roots are read from; without it they match nothing.
 */
export function projectAt(projects: readonly RootedProject[], places: readonly string[], workspaceRoot: string | undefined): string | undefined {
  if (places.length === 0) return undefined;
  const rooted: RootedProject[] = [];
  for (const p of projects) {
    if (!p.root) continue;
    if (!isAbsolute(p.root) && !workspaceRoot) continue;
    rooted.push({ key: p.key, root: realish(isAbsolute(p.root) ? p.root : resolve(workspaceRoot!, p.root)) });
  }
  const real = places.map((p) => realish(p));
  // A linked worktree has the project of its main checkout.
  const mirrored = real.map((p) => inMainCheckout(p)).filter((p): p is string => p !== undefined);
  return projectForPaths(rooted, [...real, ...mirrored]);
}

/**
 * A root as it is stored: absolute and real. A relative one is read against the caller's working
 * directory (`ctx.cwd`: the CLI's `--root .`), else the workspace's repository folder.
 */
export function storedRoot(ctx: Pick<Context, 'store' | 'cwd'>, root: string): string {
  const base = ctx.cwd ?? workspaceRepository(ctx.store) ?? process.cwd();
  return realish(isAbsolute(root) ? root : resolve(base, root));
}
