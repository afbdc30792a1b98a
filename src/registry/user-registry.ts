/**
 * This user's repository registry, as entry points use it: where it lives (CAIRN_REGISTRY, `off`
 * turns it off; else $XDG_CONFIG_HOME/cairn/repos.json; else ~/.config/cairn/repos.json), the port
 * the core reads, and registering a workspace. The file code loads only when a lookup or a
 * registration needs it, so commands that do neither pay nothing.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Store } from '../core/ports.js';
import type { RepositoryRegistry } from '../core/registry-port.js';

export function registryPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.CAIRN_REGISTRY?.trim();
  if (named === 'off' || named === 'none' || named === '0') return undefined;
  if (named) return resolve(named);
  const base = env.XDG_CONFIG_HOME?.trim() || join(homedir(), '.config');
  return join(base, 'cairn', 'repos.json');
}

const load = () => import('./repo-registry.js');

/** The registry port for a context (undefined when turned off), opening workspaces with `open`. */
export function userRegistry(open: (db: string) => Store, env: NodeJS.ProcessEnv = process.env): RepositoryRegistry | undefined {
  const file = registryPath(env);
  if (!file) return undefined;
  return {
    location: file,
    list: async () => new (await load()).FileRegistry(file, open).list(),
    refresh: async () => new (await load()).FileRegistry(file, open).refresh(),
  };
}

/**
 * Registers the workspace of `store` (a SQLite workspace inside a repository; others are skipped).
 * Never fails the caller: a registry that cannot be written is reported through `onWarning` only.
 */
export async function registerWorkspace(store: Store, open: (db: string) => Store, opts: { env?: NodeJS.ProcessEnv; onWarning?: (m: string) => void } = {}): Promise<void> {
  const file = registryPath(opts.env ?? process.env);
  if (!file) return;
  try {
    await new (await load()).FileRegistry(file, open).note(store);
  } catch (err) {
    opts.onWarning?.(`could not register this workspace in ${file}: ${(err as Error).message}`);
  }
}
