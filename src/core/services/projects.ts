/** Projects and their workflows: create from a template, list, get, update (incl. statuses), archive. */
import { newUlid as ulid } from '../model/ids.js';
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { ProjectKey } from '../model/ids.js';
import { Aliases, ProjectDescription, ProjectName, ProjectRoot, type Project } from '../model/project.js';
import { StatusOp, TemplateName, templateStatuses } from '../model/workflow.js';
import type { ProjectRow, Tx } from '../ports.js';
import { diff, record } from './activity.js';
import { assertAliasesFree } from './alias-conflicts.js';
import { resolveProject } from './resolve.js';
import { moveTasksToWorkflow, planStatusOps } from './workflow-edits.js';
import { projectAt, storedRoot, workspaceRepository } from './default-project.js';

export const CreateProjectInput = lazy(() =>
  z.object({
    key: ProjectKey,
    name: ProjectName,
    description: ProjectDescription.default(''),
    root: ProjectRoot.optional().describe('Repository path: agents in it default to this project'),
    aliases: Aliases.default([]).describe('Other names for it, e.g. package names'),
    template: TemplateName().default('default'),
  }),
);

export { StatusOp };

export const UpdateProjectInput = lazy(() =>
  z.object({
    key: z.string().min(1).describe('Project key or alias'),
    name: ProjectName.optional(),
    description: ProjectDescription.optional(),
    root: ProjectRoot.nullable().optional(),
    aliases: Aliases.optional(),
    requireEvidence: z.boolean().optional().describe('Refuse completions without evidence'),
    statuses: z.array(StatusOp()).max(50).optional().describe('Workflow edits applied in order: add, rename, move, recolor, recategorize, remove'),
  }),
);

export const ProjectRefInput = lazy(() => z.object({ key: z.string().min(1).describe('Project key or alias') }));
export const ListProjectsInput = lazy(() =>
  z.object({
    includeArchived: z.boolean().default(false),
    at: z.string().min(1).max(4096).optional().describe('Only the project this path is in'),
  }),
);
export const ArchiveProjectInput = lazy(() => ProjectRefInput().extend({ restore: z.boolean().default(false).describe('true un-archives') }));

async function present(tx: Tx, p: ProjectRow, counts?: Map<string, number>): Promise<Project> {
  const statuses = await tx.getStatuses(p.uid);
  const n = counts ?? (await tx.taskCounts([p.uid]));
  return {
    key: p.key,
    uid: p.uid,
    name: p.name,
    description: p.description,
    root: p.root,
    aliases: p.aliases,
    requireEvidence: p.requireEvidence ?? false,
    statuses,
    archived: p.archivedAt !== null,
    taskCount: n.get(p.uid) ?? 0,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export async function createProject(ctx: Context, input: z.infer<ReturnType<typeof CreateProjectInput>>): Promise<Project> {
  return ctx.store.write(async (tx) => {
    // Keys and aliases are checked across every project: their writers go one at a time.
    await tx.exclusive('projects');
    if (await tx.getProjectByKey(input.key)) {
      throw new CairnError('PROJECT_EXISTS', `A project with key ${input.key} already exists. Keys are unique and permanent.`, {
        suggestions: [`get_project {key: "${input.key}"}`, 'Pick another key'],
      });
    }
    await assertAliasesFree(tx, input.aliases, null);
    const now = nowIso(ctx);
    const row: ProjectRow = {
      uid: ulid(),
      key: input.key,
      name: input.name,
      description: input.description,
      root: input.root ? storedRoot(ctx, input.root) : null,
      aliases: [...new Set(input.aliases)],
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await tx.insertProject(row, templateStatuses(input.template));
    await record(tx, ctx, { projectUid: row.uid, taskUid: null, type: 'project.created', changes: diff({}, { key: row.key, name: row.name, template: input.template }) });
    return present(tx, row, new Map());
  });
}

export async function listProjects(ctx: Context, input: z.infer<ReturnType<typeof ListProjectsInput>>): Promise<{ projects: Project[] }> {
  return ctx.store.read(async (tx) => {
    let rows = await tx.listProjects(input.includeArchived);
    if (input.at !== undefined) {
      const key = projectAt(rows, [input.at], workspaceRepository(ctx.store));
      rows = rows.filter((r) => r.key === key);
    }
    const counts = await tx.taskCounts(rows.map((r) => r.uid));
    return { projects: await Promise.all(rows.map((r) => present(tx, r, counts))) };
  });
}

export async function getProject(ctx: Context, input: z.infer<ReturnType<typeof ProjectRefInput>>): Promise<Project> {
  return ctx.store.read(async (tx) => present(tx, await resolveProject(tx, input.key)));
}

/**
 * Updates a project. Workflow edits commit with the project, then the tasks they affect follow in
 * bounded batches through the task write path (workflow-edits.ts, which says why in that order).
 */
export async function updateProject(ctx: Context, input: z.infer<ReturnType<typeof UpdateProjectInput>>): Promise<Project> {
  const { uid, moves } = await ctx.store.write(async (tx) => {
    const p = await resolveProject(tx, input.key);
    if (input.aliases) await assertAliasesFree(tx, input.aliases, p.uid);
    const patch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.requireEvidence !== undefined ? { requireEvidence: input.requireEvidence } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.root !== undefined ? { root: input.root === null ? null : storedRoot(ctx, input.root) } : {}),
      ...(input.aliases !== undefined ? { aliases: [...new Set(input.aliases)] } : {}),
    };
    const before = await tx.getStatuses(p.uid);
    const plan = input.statuses?.length ? await planStatusOps(tx, p, input.statuses) : undefined;
    const after = plan?.statuses ?? before;
    const changes = diff(p as unknown as Record<string, unknown>, patch);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      changes.statuses = { before, after };
      await tx.replaceStatuses(p.uid, after);
    }
    if (Object.keys(changes).length > 0) {
      await tx.updateProject(p.uid, { ...patch, updatedAt: nowIso(ctx) });
      await record(tx, ctx, { projectUid: p.uid, taskUid: null, type: 'project.updated', changes });
    }
    return { uid: p.uid, moves: plan?.moves ?? [] };
  });
  if (moves.length) await moveTasksToWorkflow(ctx, uid, moves);
  return ctx.store.read(async (tx) => present(tx, (await tx.getProjectByUid(uid))!));
}

export async function archiveProject(ctx: Context, input: z.infer<ReturnType<typeof ArchiveProjectInput>>): Promise<Project> {
  return ctx.store.write(async (tx) => {
    const p = await resolveProject(tx, input.key);
    const archivedAt = input.restore ? null : (p.archivedAt ?? nowIso(ctx));
    if (archivedAt !== p.archivedAt) {
      await tx.updateProject(p.uid, { archivedAt, updatedAt: nowIso(ctx) });
      await record(tx, ctx, {
        projectUid: p.uid,
        taskUid: null,
        type: input.restore ? 'project.restored' : 'project.archived',
        changes: { archived: { before: p.archivedAt !== null, after: archivedAt !== null } },
      });
    }
    return present(tx, (await tx.getProjectByUid(p.uid))!);
  });
}
