/**
 * Handoffs: an agent hands a task to another project — in this workspace, or in another
 * repository's `.cairn/` workspace on this machine — and it is never lost. The task is created in
 * the target with its origin (the submitting project and repository) and repo-relative anchors; an
 * idempotency key makes a repeat (an outbox redelivery, a retry) answer the task already made.
 */
import { resolve } from 'node:path';
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { CairnError } from '../errors.js';
import { Description, Labels, Priority, Title } from '../model/task.js';
import type { ProjectRow } from '../ports.js';
import { projectForPaths } from '../rules/project-root.js';
import { nameMatch } from '../rules/repo-names.js';
import { withIdempotency, isReplay } from './idempotency.js';
import { displayIdOf } from './hydrate.js';
import { locateProject, openRepositoryWorkspace, projectNamed, type LocatedProject, type OpenedWorkspace } from './locate-project.js';
import { repoIdentity } from '../places/repo-identity.js';
import { isPathLike, normalizeAnchors, projectRootOf, realish, repositoryOfDb } from '../places/repo-paths.js';
import { resolveProject } from './resolve.js';
import { createTask } from './tasks.js';

export const SubmitHandoffInput = lazy(() =>
  z.object({
    target: z.string().trim().min(1).max(1000).optional().describe('Project key, alias (package name, repo slug) or path of a repository with a .cairn/ workspace'),
    repository: z.string().trim().min(1).max(1000).optional().describe("Repository whose .cairn/ workspace holds target (default: this workspace's)"),
    title: Title,
    details: Description.default('').describe('Markdown'),
    priority: Priority.default('none'),
    tags: Labels.default([]),
    anchors: z.array(z.string().max(1000)).max(100).default([]).describe('File paths, absolute or repo-relative; stored repo-relative'),
    idempotencyKey: z.string().trim().min(1).max(200).optional().describe('A repeat with the same key answers the task already made'),
    from: z.string().min(1).max(100).optional().describe('Submitting project (default: the session project)'),
  }),
);
export type SubmitHandoffInput = z.infer<ReturnType<typeof SubmitHandoffInput>>;

export const HandoffTarget = lazy(() =>
  z.object({
    project: z.string().nullable().describe('Target project key (null while waiting in the outbox)'),
    repository: z.string().nullable().describe('Target repository root, when known'),
    workspace: z.string().describe('Target workspace: database path, or the remote URL'),
  }),
);

export const SubmitHandoffOutput = lazy(() =>
  z.object({
    taskId: z.string().nullable().describe('KEY-N in the target; null while waiting in the outbox'),
    target: HandoffTarget(),
    persistedOffline: z.boolean().describe('true: the server was unreachable; recorded in the outbox, delivered later'),
    replayed: z.boolean().describe('true: this idempotency key was used before; the task it made is returned'),
    outboxId: z.string().optional(),
    message: z.string(),
  }),
);
export type SubmitHandoffOutput = z.infer<ReturnType<typeof SubmitHandoffOutput>>;

/**
 * The target project in a repository's workspace: the project `ref` names there (a key, an alias,
 * the package or remote of a project's folder), else — when `ref` is the repository's own package
 * name or remote slug, or absent — the project rooted at the path, else its only project. A name
 * the repository does not answer to is refused: the path alone never decides for a wrong name.
 */
async function targetProject(ws: OpenedWorkspace, ref: string | undefined, path: string): Promise<ProjectRow> {
  if (ref) {
    const named = await projectNamed(ws, ref);
    if (named) return named;
    const identity = repoIdentity(path);
    if (!nameMatch(ref, { keys: [], aliases: [], ...identity })) {
      const all = await ws.store.read((tx) => tx.listProjects(false));
      const names = [...new Set([...(identity.package ? [identity.package] : []), ...(identity.remote ? [identity.remote] : []), ...all.flatMap((p) => [p.key, ...p.aliases])])];
      throw new CairnError(
        'PROJECT_NOT_FOUND',
        `"${ref}" does not name the repository ${path}: it answers to ${names.length ? names.join(', ') : 'no name yet (no projects, no package.json name, no git remote)'}. Nothing was changed.`,
        {
          suggestions: [...names.slice(0, 3).map((n) => `target: "${n}", repository: "${path}"`), `target: "${ref}" without repository finds it among the repositories this machine knows`],
          details: { wanted: ref, repository: path, known: names },
        },
      );
    }
  }
  return ws.store.read(async (tx) => {
    const all = await tx.listProjects(false);
    const rooted = projectForPaths(
      all.map((p) => ({ key: p.key, root: projectRootOf(p.root, ws.root) })),
      [path, realish(path)],
    );
    const found = rooted ? all.find((p) => p.key === rooted) : all.length === 1 ? all[0] : undefined;
    if (found) return found;
    throw new CairnError(
      'PROJECT_NOT_FOUND',
      all.length
        ? `The workspace of ${path} has ${all.length} projects and none is rooted there, so the target is ambiguous: ${all.map((p) => p.key).join(', ')}. Nothing was changed.`
        : `The workspace of ${path} has no projects yet. Nothing was changed.`,
      {
        suggestions: all.length ? all.slice(0, 3).map((p) => `target: "${p.key}", repository: "${path}"`) : [`cairn project create KEY "Name" --root ${path}  (inside that repository)`],
        details: { candidates: all.map((p) => p.key) },
      },
    );
  });
}

/** "API @ /home/me/api": the submitting project and its repository, as far as they are known. */
async function originOf(ctx: Context, from: string | undefined): Promise<string> {
  const repo = repositoryOfDb(ctx.store.location);
  const p = await ctx.store
    .read(async (tx) => {
      if (from) return resolveProject(tx, from);
      // No session project: the one rooted at this workspace's repository, else the only one.
      const all = await tx.listProjects(false);
      const rooted = repo
        ? projectForPaths(
            all.map((x) => ({ key: x.key, root: projectRootOf(x.root, repo) })),
            [repo],
          )
        : undefined;
      return all.find((x) => x.key === rooted) ?? (all.length === 1 ? all[0] : undefined);
    })
    .catch(() => undefined);
  const root = p ? projectRootOf(p.root, repo) : repo;
  if (!p && !from) return root ? `repository ${root}` : `actor ${ctx.actor}`;
  return `${p?.key ?? from}${root ? ` @ ${root}` : ''}`;
}

/** Creates the handed-off task in its target (once per idempotency key) and says where it went. */
export async function submitHandoff(ctx: Context & { defaultProject?: string }, input: SubmitHandoffInput): Promise<SubmitHandoffOutput> {
  if (!input.target && !input.repository) {
    throw new CairnError('VALIDATION_ERROR', 'Invalid arguments for submit_handoff: give target (a project key, alias or repository path) or repository. Nothing was changed.', {
      suggestions: ['submit_handoff {target: "API", title: "…"}', 'submit_handoff {repository: "/path/to/repo", title: "…"}'],
    });
  }
  const pathTarget = input.target && isPathLike(input.target) ? input.target : undefined;
  const repository = input.repository ?? pathTarget;
  const ref = pathTarget ? undefined : input.target;
  const origin = await originOf(ctx, input.from ?? ctx.defaultProject);
  const { ws, project } = await openTarget(ctx, ref, repository);
  try {
    const root = projectRootOf(project.root, ws.root);
    const anchors = normalizeAnchors(input.anchors, root);
    const target = { project: project.key, repository: root, workspace: ws.store.location };
    const targetCtx: Context = { ...ctx, store: ws.store };
    const create = (c: Context) =>
      createTask(c, {
        project: project.key,
        title: input.title,
        description: input.details,
        priority: input.priority,
        labels: input.tags,
        anchors,
        origin,
        kind: 'task',
        score: 0,
        blockedBy: [],
        checklist: [],
        links: {},
        touches: [],
      });
    const made = input.idempotencyKey
      ? await withIdempotency(targetCtx, { key: input.idempotencyKey, op: 'submit_handoff', request: { ...input, idempotencyKey: undefined } }, create)
      : await create(targetCtx);
    if (isReplay(made)) {
      const task = made.record.taskUid ? await ws.store.read((tx) => tx.getTask(made.record.taskUid!)) : undefined;
      const taskId = task ? displayIdOf(task) : null;
      return {
        taskId,
        target: task ? { ...target, project: task.projectKey } : target,
        persistedOffline: false,
        replayed: true,
        message: `Already handed off as ${taskId ?? '(a task since purged)'} (idempotency key ${input.idempotencyKey}); nothing new was created.`,
      };
    }
    return { taskId: made.id, target, persistedOffline: false, replayed: false, message: `Handed off to ${project.key}${root ? ` (${root})` : ''} as ${made.id}.` };
  } finally {
    await ws.close();
  }
}

/** The workspace and project a handoff goes to: a repository path (and a name it must answer to), or a name alone. */
async function openTarget(ctx: Context, ref: string | undefined, repository: string | undefined): Promise<LocatedProject> {
  if (!repository) return locateProject(ctx, ref!);
  const ws = openRepositoryWorkspace(ctx, repository);
  try {
    return { ws, project: await targetProject(ws, ref, resolve(repository.replace(/^~(?=\/)/, process.env.HOME ?? '~'))) };
  } catch (err) {
    await ws.close();
    throw err;
  }
}
