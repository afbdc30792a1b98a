/**
 * The session's default project: the project an op works in when its caller names none. Every
 * surface asks here (the CLI, MCP over stdio and HTTP, the in-process tools), so they agree.
 *
 * The sources are tried in this order:
 * 1. the caller's explicit choice (`--project`, `?project=`, a token limited to one project);
 * 2. the MCP client's roots;
 * 3. CAIRN_PROJECT;
 * 4. the project whose root holds the working directory.
 *
 * A blank value counts as absent. Roots and places are matched by core/services/default-project.ts.
 * A profile adds its own last step (the only project, or one it creates: profiles/serve.ts).
 */
import { CairnError } from '../core/errors.js';
import { projectAt, workspaceRepository, type RootedProject } from '../core/services/default-project.js';
import type { OpContext } from './op.js';
import { loadOp } from './op-modules.js';
import { runOp } from './run-op.js';

export interface ProjectSources {
  explicit?: string | undefined;
  /** The MCP client's roots, as paths. */
  roots?: readonly string[] | undefined;
  /** CAIRN_PROJECT. */
  env?: string | undefined;
  /** The caller's working directory. */
  cwd?: string | undefined;
}

const given = (value: string | null | undefined): string | undefined => value?.trim() || undefined;

/** The first of `choices` that is not blank, trimmed: an explicit project from several places (`?project=`, then a token's one project). */
export function explicitProject(...choices: Array<string | null | undefined>): string | undefined {
  for (const c of choices) {
    const key = given(c);
    if (key) return key;
  }
  return undefined;
}

/** A remote workspace's projects change without a local signal: look again after this long. */
const REMOTE_RELIST_MS = 5000;

/**
 * The workspace's projects with their roots, and where relative roots are read from.
 * Only the project rows are read, not list_projects' task counts: those cost grows with the workspace,
 * and every command without --project would pay it.
 */
export async function rootedProjects(ctx: OpContext): Promise<{ projects: readonly RootedProject[]; workspaceRoot: string | undefined }> {
  const remote = ctx.remote;
  if (!remote) return { projects: await ctx.store.read((tx) => tx.listProjects(false)), workspaceRoot: workspaceRepository(ctx.store) };
  const listOp = (await loadOp('list_projects'))!;
  const projects = await runOp(listOp, ctx, {}).then(
    (r) => (r as { projects: RootedProject[] }).projects,
    // While the server is away, the projects it listed last still say which one a folder is, so an
    // offline `cairn add` queues without --project. Never listed: there is no default.
    (err: unknown) => {
      if (err instanceof CairnError && err.code === 'REMOTE_UNREACHABLE') return remote.knownProjects() ?? [];
      throw err;
    },
  );
  // A remote server's relative roots (an older server) cannot be read from here: they match nothing.
  return { projects, workspaceRoot: undefined };
}

/** The key of the project whose root holds one of `places`, if any. */
export async function projectAtPlaces(ctx: OpContext, places: readonly string[]): Promise<string | undefined> {
  if (places.length === 0) return undefined;
  const { projects, workspaceRoot } = await rootedProjects(ctx);
  return projectAt(projects, places, workspaceRoot);
}

/** The default project from `sources`, in the order above; undefined when none applies. */
export async function resolveDefaultProject(ctx: OpContext, sources: ProjectSources): Promise<string | undefined> {
  const explicit = given(sources.explicit);
  if (explicit) return explicit;
  const fromRoots = await projectAtPlaces(ctx, sources.roots ?? []);
  if (fromRoots) return fromRoots;
  const env = given(sources.env);
  if (env) return env;
  return sources.cwd ? projectAtPlaces(ctx, [sources.cwd]) : undefined;
}

/** Changes whenever the answer of resolveDefaultProject may have changed, so a caller can cache it. */
export function projectsChangeToken(ctx: OpContext): Promise<string> {
  if (ctx.remote) return Promise.resolve(String(Math.floor(Date.now() / REMOTE_RELIST_MS)));
  return ctx.store.projectsToken();
}
