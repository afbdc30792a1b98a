/**
 * Which project a name stands for, and in which workspace (seed 003: a dependency id alone finds its
 * repository). In order: this workspace's keys and aliases; the package names and git remotes of its
 * projects' folders; then the repositories this machine has registered (core/registry-port.ts),
 * re-read once when none matches. A name that matches nothing, or several, is refused with the
 * names that are known — never guessed.
 */
import type { Context } from '../context.js';
import { CairnError } from '../errors.js';
import type { ProjectRow, Store } from '../ports.js';
import { namesOf, type RegisteredRepository } from '../registry-port.js';
import { displayNames, nameMatch } from '../rules/repo-names.js';
import { closest } from '../rules/suggest.js';
import { repoIdentity } from '../places/repo-identity.js';
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { projectRootOf, realish, repositoryOfDb, WORKSPACE_DB, WORKSPACE_DIR, workspaceRootOf } from '../places/repo-paths.js';
import { resolveProject } from './resolve.js';

export interface LocatedProject {
  ws: OpenedWorkspace;
  project: ProjectRow;
}

/** A workspace a call works on: this one, or another repository's (opened here, closed by `close`). */
export interface OpenedWorkspace {
  store: Store;
  /** The repository folder holding `.cairn/` (undefined for a database elsewhere, e.g. --db /tmp/x.db). */
  root: string | undefined;
  local: boolean;
  close(): Promise<void>;
}

const sameFile = (a: string, b: string): boolean => realish(a) === realish(b);

/** The workspace of a repository path (its own `.cairn/`, or its nearest ancestor's), or this one when that is the same file. */
export function openRepositoryWorkspace(ctx: Context, repository: string | undefined): OpenedWorkspace {
  const here: OpenedWorkspace = { store: ctx.store, root: repositoryOfDb(ctx.store.location), local: true, close: async () => undefined };
  if (!repository) return here;
  const path = resolve(repository.replace(/^~(?=\/)/, process.env.HOME ?? '~'));
  if (!ctx.openWorkspace) {
    // A server confined to its own workspace says nothing about other paths on its machine.
    const own = here.root ? realish(here.root) : undefined;
    const real = realish(path);
    if (own && (real === own || real.startsWith(own + sep))) return here;
    throw new CairnError('FORBIDDEN', `This server hands off only within its own workspace${here.root ? ` (${here.root})` : ''}; ${path} is outside it. Nothing was changed.`, {
      suggestions: ['Hand off from the CLI or `cairn mcp` on the machine that holds that repository', 'Name a project of this workspace'],
    });
  }
  const root = existsSync(path) ? workspaceRootOf(path) : undefined;
  if (!root) {
    throw new CairnError('NO_WORKSPACE', `${path} has no Cairn workspace: no .cairn/ folder there or in a parent folder, so nothing can be handed to it. Nothing was changed.`, {
      suggestions: [`cairn init  (run inside ${path}, once, to give that repository a workspace)`, 'Name a project key or alias of this workspace instead'],
      details: { repository: path },
    });
  }
  const db = join(root, WORKSPACE_DIR, WORKSPACE_DB);
  if (sameFile(db, ctx.store.location)) return { ...here, root };
  const store = ctx.openWorkspace(db);
  return { store, root, local: false, close: () => store.close() };
}

const notFound = (err: unknown): boolean => err instanceof CairnError && err.code === 'PROJECT_NOT_FOUND';

/**
 * The project of an opened workspace that `ref` names: a key or alias, else the package name or git
 * remote of a project's folder (a package name outranks a remote several projects share; among
 * those, the project rooted at the repository itself). Undefined when nothing there answers to it.
 */
export async function projectNamed(ws: OpenedWorkspace, ref: string): Promise<ProjectRow | undefined> {
  const direct = await ws.store
    .read((tx) => resolveProject(tx, ref))
    .catch((err: unknown) => {
      if (notFound(err)) return undefined;
      throw err;
    });
  if (direct) return direct;
  const projects = await ws.store.read((tx) => tx.listProjects(false));
  const hits: Array<{ p: ProjectRow; how: string; root: string }> = [];
  for (const p of projects) {
    const root = projectRootOf(p.root, ws.root);
    if (!root) continue;
    const how = nameMatch(ref, { keys: [], aliases: [], ...repoIdentity(root) });
    if (how) hits.push({ p, how, root });
  }
  const byPackage = hits.filter((h) => h.how === 'package');
  const best = byPackage.length ? byPackage : hits;
  if (best.length <= 1) return best[0]?.p;
  const atRoot = ws.root ? best.filter((h) => realish(h.root) === realish(ws.root!)) : [];
  if (atRoot.length === 1) return atRoot[0]!.p;
  const keys = best.map((h) => h.p.key);
  throw new CairnError('PROJECT_EXISTS', `"${ref}" names several projects of ${ws.root ?? ws.store.location} (${keys.join(', ')}), so it cannot say which one is meant. Nothing was changed.`, {
    suggestions: keys.map((k) => `target: "${k}"`),
    details: { wanted: ref, projects: keys },
  });
}

/** The registered repositories (other than this workspace) that `ref` names. */
function registered(ctx: Context, ref: string, list: RegisteredRepository[]): RegisteredRepository[] {
  const here = realish(ctx.store.location);
  return list.filter((r) => realish(r.db) !== here && (nameMatch(ref, namesOf(r)) || namesOf(r).packages.some((p) => p.toLowerCase() === ref.trim().toLowerCase())));
}

/** The project `ref` names, here or in a registered repository's workspace (opened; the caller closes `ws`). */
export async function locateProject(ctx: Context, ref: string): Promise<LocatedProject> {
  const here = openRepositoryWorkspace(ctx, undefined);
  const local = await projectNamed(here, ref);
  if (local) return { ws: here, project: local };
  const registry = ctx.openWorkspace ? ctx.repositories : undefined;
  if (!registry) throw await unknownName(ctx, ref, []);
  let list = await registry.list();
  let found = registered(ctx, ref, list);
  if (!found.length) {
    // Keys and aliases change after a workspace registered: read every registered one again, once.
    list = await registry.refresh();
    found = registered(ctx, ref, list);
  }
  if (found.length > 1) {
    throw new CairnError(
      'PROJECT_EXISTS',
      `"${ref}" names ${found.length} repositories on this machine (${found.map((r) => r.root).join(', ')}), so it cannot say which one is meant. Nothing was changed.`,
      {
        suggestions: found.map((r) => `target: "${ref}", repository: "${r.root}"`),
        details: { wanted: ref, repositories: found.map((r) => r.root) },
      },
    );
  }
  const repo = found[0];
  if (!repo) throw await unknownName(ctx, ref, list);
  const ws = openRepositoryWorkspace(ctx, repo.root);
  try {
    const project = (await projectNamed(ws, ref)) ?? (await onlyOrRooted(ws));
    if (project) return { ws, project };
  } catch (err) {
    await ws.close();
    throw err;
  }
  await ws.close();
  throw await unknownName(ctx, ref, list);
}

/** A repository named by its package or remote: the project rooted at it, else its only project. */
async function onlyOrRooted(ws: OpenedWorkspace): Promise<ProjectRow | undefined> {
  const all = await ws.store.read((tx) => tx.listProjects(false));
  const rooted = ws.root
    ? all.filter((p) => {
        const r = projectRootOf(p.root, ws.root);
        return r !== null && realish(r) === realish(ws.root!);
      })
    : [];
  return rooted.length === 1 ? rooted[0] : all.length === 1 ? all[0] : undefined;
}

/** PROJECT_NOT_FOUND for a name nothing answers to, listing what is known here and on this machine. */
async function unknownName(ctx: Context, ref: string, repos: RegisteredRepository[]): Promise<CairnError> {
  const projects = await ctx.store.read((tx) => tx.listProjects(false)).catch(() => []);
  const here = realish(ctx.store.location);
  const known = [
    ...projects.flatMap((p) => [p.key, ...p.aliases]),
    ...repos
      .filter((r) => realish(r.db) !== here)
      .flatMap((r) =>
        displayNames(namesOf(r))
          .slice(0, 3)
          .map((n) => `${n} (${r.root})`),
      ),
  ];
  const plain = known.map((k) => k.replace(/ \(.*\)$/, ''));
  const near = closest(ref, plain);
  const where = ctx.repositories && ctx.openWorkspace ? `this workspace or the ${repos.length} other repositories registered on this machine (${ctx.repositories.location})` : 'this workspace';
  return new CairnError(
    'PROJECT_NOT_FOUND',
    `Unknown target "${ref}": no project key, alias, package name or git remote slug in ${where} is "${ref}".${known.length ? ` Known: ${known.slice(0, 12).join(', ')}${known.length > 12 ? `, and ${known.length - 12} more` : ''}.` : ''} Nothing was changed.`,
    {
      suggestions: [
        ...near.map((k) => `target: "${k}"`),
        'repository: "/path/to/that/repo" to hand off to another repository\'s workspace',
        'cairn init or cairn mcp, run once inside that repository, registers it on this machine (cairn repos lists them)',
        'update_project {key, aliases: ["<package or repo slug>"]} so the name resolves next time',
      ],
      details: { wanted: ref, candidates: near, known: plain.slice(0, 50) },
    },
  );
}
