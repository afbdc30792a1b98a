/**
 * Handoffs: an agent hands a task to another project — in this workspace, or in another
 * repository's `.cairn/` workspace on this machine — and it is never lost. The task is created in
 * the target with its origin (the submitting project and repository) and repo-relative anchors; an
 * idempotency key makes a repeat (an outbox redelivery, a retry) answer the task already made.
 */
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { CairnError } from '../errors.js';
import { Description, Labels, Priority, Title } from '../model/task.js';
import type { ProjectRow, Store } from '../ports.js';
import { projectForPaths } from '../rules/project-root.js';
import { withIdempotency, isReplay } from './idempotency.js';
import { displayIdOf } from './hydrate.js';
import { isPathLike, normalizeAnchors, projectRootOf, realish, repositoryOfDb, WORKSPACE_DB, WORKSPACE_DIR, workspaceRootOf } from './repo-paths.js';
import { resolveProject } from './resolve.js';
import { createTask } from './tasks.js';

export const SubmitHandoffInput = lazy(() => z.object({
  target: z.string().trim().min(1).max(1000).optional()
    .describe('Project key, alias (package name, repo slug) or path of a repository with a .cairn/ workspace'),
  repository: z.string().trim().min(1).max(1000).optional().describe("Repository whose .cairn/ workspace holds target (default: this workspace's)"),
  title: Title,
  details: Description.default('').describe('Markdown'),
  priority: Priority.default('none'),
  tags: Labels.default([]),
  anchors: z.array(z.string().max(1000)).max(100).default([]).describe('File paths, absolute or repo-relative; stored repo-relative'),
  idempotencyKey: z.string().trim().min(1).max(200).optional().describe('A repeat with the same key answers the task already made'),
  from: z.string().min(1).max(100).optional().describe('Submitting project (default: the session project)'),
}));
export type SubmitHandoffInput = z.infer<ReturnType<typeof SubmitHandoffInput>>;

export const HandoffTarget = lazy(() => z.object({
  project: z.string().nullable().describe('Target project key (null while waiting in the outbox)'),
  repository: z.string().nullable().describe("Target repository root, when known"),
  workspace: z.string().describe('Target workspace: database path, or the remote URL'),
}));

export const SubmitHandoffOutput = lazy(() => z.object({
  taskId: z.string().nullable().describe('KEY-N in the target; null while waiting in the outbox'),
  target: HandoffTarget(),
  persistedOffline: z.boolean().describe('true: the server was unreachable; recorded in the outbox, delivered later'),
  replayed: z.boolean().describe('true: this idempotency key was used before; the task it made is returned'),
  outboxId: z.string().optional(),
  message: z.string(),
}));
export type SubmitHandoffOutput = z.infer<ReturnType<typeof SubmitHandoffOutput>>;

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

/** Reads the target project in an opened workspace: by key/alias, else the project rooted at the path, else the only one. */
async function targetProject(ws: OpenedWorkspace, ref: string | undefined, path: string | undefined): Promise<ProjectRow> {
  return ws.store.read(async (tx) => {
    if (ref) return resolveProject(tx, ref);
    const all = await tx.listProjects(false);
    const rooted = path ? projectForPaths(all.map((p) => ({ key: p.key, root: projectRootOf(p.root, ws.root) })), [path, realish(path)]) : undefined;
    const found = rooted ? all.find((p) => p.key === rooted) : all.length === 1 ? all[0] : undefined;
    if (found) return found;
    const where = path ?? ws.store.location;
    throw new CairnError('PROJECT_NOT_FOUND', all.length
      ? `The workspace of ${where} has ${all.length} projects and none is rooted there, so the target is ambiguous: ${all.map((p) => p.key).join(', ')}. Nothing was changed.`
      : `The workspace of ${where} has no projects yet. Nothing was changed.`, {
      suggestions: all.length ? all.slice(0, 3).map((p) => `target: "${p.key}", repository: "${where}"`) : [`cairn project create KEY "Name" --root ${where}  (inside that repository)`],
      details: { candidates: all.map((p) => p.key) },
    });
  });
}

/** "API @ /home/me/api": the submitting project and its repository, as far as they are known. */
async function originOf(ctx: Context, from: string | undefined): Promise<string> {
  const repo = repositoryOfDb(ctx.store.location);
  const p = await ctx.store.read(async (tx) => {
    if (from) return resolveProject(tx, from);
    // No session project: the one rooted at this workspace's repository, else the only one.
    const all = await tx.listProjects(false);
    const rooted = repo ? projectForPaths(all.map((x) => ({ key: x.key, root: projectRootOf(x.root, repo) })), [repo]) : undefined;
    return all.find((x) => x.key === rooted) ?? (all.length === 1 ? all[0] : undefined);
  }).catch(() => undefined);
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
  const ws = openRepositoryWorkspace(ctx, repository);
  try {
    const project = await targetProject(ws, ref, repository ? resolve(repository) : undefined).catch((err: unknown) => {
      throw ref && err instanceof CairnError && err.code === 'PROJECT_NOT_FOUND' && !repository ? unknownTarget(err, ref) : err;
    });
    const root = projectRootOf(project.root, ws.root);
    const anchors = normalizeAnchors(input.anchors, root);
    const target = { project: project.key, repository: root, workspace: ws.store.location };
    const targetCtx: Context = { ...ctx, store: ws.store };
    const create = (c: Context) => createTask(c, {
      project: project.key, title: input.title, description: input.details, priority: input.priority, labels: input.tags, anchors,
      origin, kind: 'task', score: 0, blockedBy: [], checklist: [], links: {},
    });
    const made = input.idempotencyKey ? await withIdempotency(targetCtx, input.idempotencyKey, 'submit_handoff', create) : await create(targetCtx);
    if (isReplay(made)) {
      const task = made.record.taskUid ? await ws.store.read((tx) => tx.getTask(made.record.taskUid!)) : undefined;
      const taskId = task ? displayIdOf(task) : null;
      return { taskId, target: task ? { ...target, project: task.projectKey } : target, persistedOffline: false, replayed: true, message: `Already handed off as ${taskId ?? '(a task since purged)'} (idempotency key ${input.idempotencyKey}); nothing new was created.` };
    }
    return { taskId: made.id, target, persistedOffline: false, replayed: false, message: `Handed off to ${project.key}${root ? ` (${root})` : ''} as ${made.id}.` };
  } finally {
    await ws.close();
  }
}

/** PROJECT_NOT_FOUND restated for a handoff target: the closest keys and aliases, and how to name a repository. */
function unknownTarget(err: CairnError, ref: string): CairnError {
  const near = (err.details?.candidates as string[] | undefined) ?? [];
  return new CairnError('PROJECT_NOT_FOUND', `Unknown handoff target "${ref}": no project of this workspace has that key or alias.${near.length ? ` Closest: ${near.join(', ')}.` : ''} Nothing was changed.`, {
    suggestions: [
      ...near.map((k) => `target: "${k}"`),
      'repository: "/path/to/that/repo" to hand off to another repository\'s workspace',
      'update_project {key, aliases: ["<package or repo slug>"]} so the name resolves next time',
    ],
    details: { wanted: ref, candidates: near },
  });
}
