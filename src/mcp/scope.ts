/**
 * The session's default project, as Castle asks: the explicit option, then the client's MCP roots
 * (when it offers them), then CAIRN_PROJECT, then the project whose `root` contains the working
 * directory. Derived sources are re-resolved only when projects may have changed (a task write
 * leaves them be), so a call costs nothing.
 */
import { fileURLToPath } from 'node:url';
import type { Store } from '../core/ports.js';
import { projectAt, workspaceRepository } from '../core/services/default-project.js';

export interface ScopeSources {
  /** --project / the caller's explicit choice: wins over everything. */
  explicit?: string | undefined;
  /** CAIRN_PROJECT. */
  env?: string | undefined;
  /** The server's working directory (stdio: the agent's repository). */
  cwd?: string | undefined;
}

/** The key of the project whose root contains one of the paths, read from the store (core/services/default-project.ts decides). */
async function storedProjectAt(store: Store, paths: readonly string[]): Promise<string | undefined> {
  if (paths.length === 0) return undefined;
  return projectAt(await store.read((tx) => tx.listProjects(false)), paths, workspaceRepository(store));
}

/** file:// root URIs as paths; other schemes are ignored. */
export function rootPaths(roots: ReadonlyArray<{ uri: string }>): string[] {
  const out: string[] = [];
  for (const r of roots) {
    try {
      if (r.uri.startsWith('file:')) out.push(fileURLToPath(r.uri));
    } catch {
      // A malformed root is the client's problem; scoping falls through to the next source.
    }
  }
  return out;
}

/** Where a scope reads projects when there is no local store (a remote workspace): a list and a change token. */
export interface ProjectSource {
  token(): Promise<string>;
  list(): Promise<ReadonlyArray<{ key: string; root: string | null }>>;
}

export class ProjectScope {
  #roots: string[] = [];
  #cache: { token: string; value: string | undefined } | undefined;

  constructor(
    private readonly store: Store | ProjectSource,
    private readonly sources: ScopeSources,
  ) {}

  #token(): Promise<string> {
    return 'list' in this.store ? this.store.token() : this.store.projectsToken();
  }

  async #rooted(paths: readonly string[]): Promise<string | undefined> {
    if (paths.length === 0) return undefined;
    // A remote workspace's relative roots (an older server) cannot be read from here: they match nothing.
    return 'list' in this.store ? projectAt(await this.store.list(), paths, undefined) : storedProjectAt(this.store, paths);
  }

  /** Client roots arrived (2025 clients that declare the roots capability). */
  setRoots(paths: string[]): void {
    this.#roots = paths;
    this.#cache = undefined;
  }

  async current(): Promise<string | undefined> {
    if (this.sources.explicit) return this.sources.explicit;
    const token = await this.#token();
    if (this.#cache?.token === token) return this.#cache.value;
    const value = (await this.#rooted(this.#roots)) ?? this.sources.env ?? (this.sources.cwd ? await this.#rooted([this.sources.cwd]) : undefined);
    this.#cache = { token, value };
    return value;
  }
}
