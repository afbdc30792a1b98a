/** Projects and their workflows: create from a template, list, get, update (incl. statuses), archive. */
import { newUlid as ulid } from '../model/ids.js';
import * as z from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { ProjectKey } from '../model/ids.js';
import { Alias, ProjectName, type Project } from '../model/project.js';
import { Category, Color, StatusName, TemplateName, templateStatuses, type Status } from '../model/workflow.js';
import type { ProjectRow, Tx } from '../ports.js';
import { diff, record } from './activity.js';
import { assertAliasesFree } from './alias-conflicts.js';
import { resolveProject } from './resolve.js';
import { findStatus } from '../rules/find-status.js';

export const CreateProjectInput = z.object({
  key: ProjectKey,
  name: ProjectName,
  description: z.string().max(10_000).default(''),
  root: z.string().trim().min(1).max(1000).optional().describe('Repository path; agents started inside it default to this project'),
  aliases: z.array(Alias).max(20).default([]).describe('Other names (package names, repo slugs) that resolve to this project'),
  template: TemplateName.default('default'),
});

export const StatusOp = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('add'),
    name: StatusName,
    category: Category,
    displayName: z.string().trim().min(1).max(60).optional(),
    color: Color.optional(),
    position: z.number().int().min(0).optional().describe('Lane index; default last'),
  }),
  z.object({ op: z.literal('rename'), name: StatusName, to: StatusName, displayName: z.string().trim().min(1).max(60).optional() }),
  z.object({ op: z.literal('move'), name: StatusName, position: z.number().int().min(0) }),
  z.object({ op: z.literal('recolor'), name: StatusName, color: Color }),
  z.object({ op: z.literal('recategorize'), name: StatusName, category: Category }),
  z.object({ op: z.literal('remove'), name: StatusName }),
]);
export type StatusOp = z.infer<typeof StatusOp>;

export const UpdateProjectInput = z.object({
  key: z.string().min(1).describe('Project key or alias'),
  name: ProjectName.optional(),
  description: z.string().max(10_000).optional(),
  root: z.string().trim().min(1).max(1000).nullable().optional(),
  aliases: z.array(Alias).max(20).optional(),
  statuses: z.array(StatusOp).max(50).optional().describe('Workflow edits applied in order: add, rename, move, recolor, recategorize, remove'),
});

export const ProjectRefInput = z.object({ key: z.string().min(1).describe('Project key or alias') });
export const ListProjectsInput = z.object({ includeArchived: z.boolean().default(false) });
export const ArchiveProjectInput = ProjectRefInput.extend({ restore: z.boolean().default(false).describe('true un-archives') });

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
    statuses,
    archived: p.archivedAt !== null,
    taskCount: n.get(p.uid) ?? 0,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export async function createProject(ctx: Context, input: z.infer<typeof CreateProjectInput>): Promise<Project> {
  return ctx.store.write(async (tx) => {
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
      root: input.root ?? null,
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

export async function listProjects(ctx: Context, input: z.infer<typeof ListProjectsInput>): Promise<{ projects: Project[] }> {
  return ctx.store.read(async (tx) => {
    const rows = await tx.listProjects(input.includeArchived);
    const counts = await tx.taskCounts(rows.map((r) => r.uid));
    return { projects: await Promise.all(rows.map((r) => present(tx, r, counts))) };
  });
}

export async function getProject(ctx: Context, input: z.infer<typeof ProjectRefInput>): Promise<Project> {
  return ctx.store.read(async (tx) => present(tx, await resolveProject(tx, input.key)));
}

/** Applies workflow edits, keeping tasks' status names and categories (and so readiness) consistent. */
async function applyStatusOps(tx: Tx, p: ProjectRow, ops: StatusOp[], now: string): Promise<void> {
  const statuses = (await tx.getStatuses(p.uid)).map((s) => ({ ...s }));
  // Tracked by object, not name: a later rename in the same batch must not lose the recategorization.
  const touched = new Set<Status>();
  for (const op of ops) {
    if (op.op === 'add') {
      if (statuses.some((s) => s.name === op.name)) throw new CairnError('VALIDATION_ERROR', `Project ${p.key} already has a status "${op.name}".`);
      const s: Status = { name: op.name, displayName: op.displayName ?? op.name, color: op.color ?? '#64748b', category: op.category, position: 0 };
      statuses.splice(Math.min(op.position ?? statuses.length, statuses.length), 0, s);
      continue;
    }
    const s = findStatus(statuses, op.name, p.key);
    if (op.op === 'rename') {
      if (statuses.some((x) => x.name === op.to)) throw new CairnError('VALIDATION_ERROR', `Project ${p.key} already has a status "${op.to}".`);
      await renameStatusOfTasks(tx, p.uid, s.name, op.to);
      s.name = op.to;
      if (op.displayName) s.displayName = op.displayName;
    } else if (op.op === 'move') {
      statuses.splice(statuses.indexOf(s), 1);
      statuses.splice(Math.min(op.position, statuses.length), 0, s);
    } else if (op.op === 'recolor') s.color = op.color;
    else if (op.op === 'recategorize') {
      s.category = op.category;
      touched.add(s);
    } else {
      const n = await tx.countTasksInStatus(p.uid, s.name);
      if (n > 0) {
        throw new CairnError('STATUS_IN_USE', `Status "${s.name}" of ${p.key} still holds ${n} task(s); move them to another status first. Nothing was changed.`, {
          suggestions: [`list_tasks {project: "${p.key}", status: "${s.name}"}`],
        });
      }
      statuses.splice(statuses.indexOf(s), 1);
    }
  }
  if (statuses.length === 0) throw new CairnError('VALIDATION_ERROR', `Project ${p.key} must keep at least one status.`);
  for (const c of ['todo', 'done'] as const) {
    if (!statuses.some((s) => s.category === c)) {
      throw new CairnError('VALIDATION_ERROR', `Project ${p.key} needs at least one status in category "${c}" (new tasks start in the first todo status; complete moves to the first done status). Nothing was changed.`);
    }
  }
  await tx.replaceStatuses(p.uid, statuses.map((s, position) => ({ ...s, position })));
  for (const s of touched) if (statuses.includes(s)) await tx.setCategoryForStatus(p.uid, s.name, s.category, now);
  if (touched.size) await refreshProjectBlockers(tx, p.uid);
}

async function renameStatusOfTasks(tx: Tx, projectUid: string, from: string, to: string): Promise<void> {
  const { rows } = await tx.listTasks({ projectUids: [projectUid], statuses: [from], includeArchived: true, includeDeleted: true, includeDone: true }, 'id', 1_000_000, undefined);
  for (const r of rows) await tx.updateTask(r.uid, { status: to });
}

async function refreshProjectBlockers(tx: Tx, projectUid: string): Promise<void> {
  const { rows } = await tx.listTasks({ projectUids: [projectUid], includeArchived: true, includeDeleted: true, includeDone: true }, 'id', 1_000_000, undefined);
  const dependents = new Set<string>();
  for (const r of rows) for (const d of await tx.dependentUids(r.uid)) dependents.add(d);
  await tx.refreshOpenBlockers([...dependents]);
}

export async function updateProject(ctx: Context, input: z.infer<typeof UpdateProjectInput>): Promise<Project> {
  return ctx.store.write(async (tx) => {
    const p = await resolveProject(tx, input.key);
    if (input.aliases) await assertAliasesFree(tx, input.aliases, p.uid);
    const patch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.root !== undefined ? { root: input.root } : {}),
      ...(input.aliases !== undefined ? { aliases: [...new Set(input.aliases)] } : {}),
    };
    const before = await tx.getStatuses(p.uid);
    if (input.statuses?.length) await applyStatusOps(tx, p, input.statuses, nowIso(ctx));
    const after = await tx.getStatuses(p.uid);
    const changes = diff(p as unknown as Record<string, unknown>, patch);
    if (JSON.stringify(before) !== JSON.stringify(after)) changes.statuses = { before, after };
    if (Object.keys(changes).length === 0) return present(tx, p);
    await tx.updateProject(p.uid, { ...patch, updatedAt: nowIso(ctx) });
    await record(tx, ctx, { projectUid: p.uid, taskUid: null, type: 'project.updated', changes });
    return present(tx, (await tx.getProjectByUid(p.uid))!);
  });
}

export async function archiveProject(ctx: Context, input: z.infer<typeof ArchiveProjectInput>): Promise<Project> {
  return ctx.store.write(async (tx) => {
    const p = await resolveProject(tx, input.key);
    const archivedAt = input.restore ? null : (p.archivedAt ?? nowIso(ctx));
    if (archivedAt !== p.archivedAt) {
      await tx.updateProject(p.uid, { archivedAt, updatedAt: nowIso(ctx) });
      await record(tx, ctx, { projectUid: p.uid, taskUid: null, type: input.restore ? 'project.restored' : 'project.archived', changes: { archived: { before: p.archivedAt !== null, after: archivedAt !== null } } });
    }
    return present(tx, (await tx.getProjectByUid(p.uid))!);
  });
}
