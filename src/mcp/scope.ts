/**
 * An MCP session's default project (ops/default-project.ts decides, as for every surface), kept
 * between calls. It is looked up again only when projects may have changed (a task write leaves
 * them be), so a call costs nothing.
 */
import { fileURLToPath } from 'node:url';
import type { OpContext } from '../ops/op.js';
import { projectsChangeToken, resolveDefaultProject } from '../ops/default-project.js';

export interface ScopeSources {
  /** --project / ?project= / a token limited to one project: wins over everything. */
  explicit?: string | undefined;
  /** CAIRN_PROJECT. */
  env?: string | undefined;
  /** The server's working directory (stdio: the agent's repository). */
  cwd?: string | undefined;
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

export class ProjectScope {
  #roots: string[] = [];
  #cache: { token: string; value: string | undefined } | undefined;

  /** `ctx`: the session's context without a default project (where projects are read: local or remote). */
  constructor(
    private readonly ctx: OpContext,
    private readonly sources: ScopeSources,
  ) {}

  /** Client roots arrived (2025 clients that declare the roots capability). */
  setRoots(paths: string[]): void {
    this.#roots = paths;
    this.#cache = undefined;
  }

  async current(): Promise<string | undefined> {
    if (this.sources.explicit?.trim()) return this.sources.explicit.trim();
    const token = await projectsChangeToken(this.ctx);
    if (this.#cache?.token === token) return this.#cache.value;
    const value = await resolveDefaultProject(this.ctx, { roots: this.#roots, env: this.sources.env, cwd: this.sources.cwd });
    this.#cache = { token, value };
    return value;
  }
}
