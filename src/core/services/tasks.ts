/** Creating, reading, listing, updating and moving tasks. */
import { newUlid as ulid } from '../model/ids.js';
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { TaskRef } from '../model/ids.js';
import {
  Anchors,
  Assignee,
  ChecklistText,
  CloseReason,
  Description,
  DocumentPath,
  Kind,
  Labels,
  Links,
  Origin,
  Priority,
  Score,
  Slug,
  Substatus,
  Title,
  type Task,
  type TaskSummary,
} from '../model/task.js';
import { Category } from '../model/workflow.js';
import { Touches } from '../model/coordination.js';
import type { TaskFilter, TaskRow, Tx } from '../ports.js';
import { TASK_SORTS } from '../ports.js';
import { record } from './activity.js';
import { decodeCursor, encodeCursor, sortKeyOf } from './cursor.js';
import { linkBlocker, setParent } from './dependencies.js';
import { IncludeDetails } from './details.js';
import { displayIdOf, hydrate, summarize } from './hydrate.js';
import { activeProjectUids, resolveLiveTask, resolveProject, resolveTask } from './resolve.js';
import { taskAnchors, taskTouches } from '../places/repo-paths.js';
import { evidenceRequired } from './lifecycle.js';
import { checkVersion, commitTaskChange, findStatus, firstOfCategory, positionAt, statusPatch, statusesOf } from './task-write.js';
import { pageLimit } from '../rules/page.js';

// UTF-8 byte order, as the store sorts them (SQLite's BINARY collation), so the labels written
// with a new row already match what the store derives.
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const normLabels = (labels: string[]) => [...new Set(labels.map((l) => l.trim()))].sort(byBytes);

export const CreateTaskInput = lazy(() =>
  z.object({
    project: z.string().min(1),
    title: Title,
    description: Description.default(''),
    status: z.string().optional(),
    kind: Kind.default('task'),
    priority: Priority.default('none'),
    score: Score.default(0),
    labels: Labels.default([]),
    assignee: Assignee.optional(),
    substatus: Substatus.optional().describe('Sub-state in the lane, e.g. blocked'),
    slug: Slug.optional().describe('Unique in the project'),
    parentId: TaskRef.optional().describe('Parent task (epic) id'),
    blockedBy: z.array(TaskRef).max(100).default([]).describe('Must finish first'),
    checklist: z.array(ChecklistText).max(200).default([]),
    anchors: Anchors.default([]),
    touches: Touches.default([]),
    links: Links().default({}),
    origin: Origin.optional().describe('Where the task came from (handoffs: submitting project or repository)'),
    documentPath: DocumentPath.optional(),
  }),
);

export async function createTask(ctx: Context, input: z.infer<ReturnType<typeof CreateTaskInput>>): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const project = await resolveProject(tx, input.project);
    const statuses = await tx.getStatuses(project.uid);
    const status = input.status ? findStatus(statuses, input.status, project.key) : (firstOfCategory(statuses, 'todo') ?? statuses[0]!);
    const now = nowIso(ctx);
    const uid = ulid();
    // Resolve every reference before writing anything, so a bad one changes nothing.
    // The same blocker named twice (API-1, api-1, its ULID) is one edge and one entry in the event.
    const blockers = [...new Map((await Promise.all(input.blockedBy.map((ref) => resolveLiveTask(tx, ref, 'blockedBy')))).map((b) => [b.uid, b])).values()];
    const parent = input.parentId ? await resolveLiveTask(tx, input.parentId, 'parentId') : null;
    const seq = await tx.allocateSeq(project.uid);
    const labels = normLabels(input.labels);
    const checklist = input.checklist.map((text, index) => ({ index, text, checked: false }));
    const row: TaskRow = {
      uid,
      projectUid: project.uid,
      projectKey: project.key,
      seq,
      title: input.title,
      description: input.description,
      status: status.name,
      category: status.category,
      kind: input.kind,
      priority: input.priority,
      score: input.score || 0, // -0 is stored as 0
      position: await positionAt(tx, { uid, projectUid: project.uid }, status.name, undefined),
      assignee: input.assignee ?? null,
      substatus: input.substatus ?? null,
      slug: input.slug ?? null,
      claimedBy: null,
      claimExpiresAt: null,
      claimGeneration: 0,
      claimWhere: null,
      evidence: null,
      checkpoint: null,
      parentUid: parent?.uid ?? null,
      parentId: parent ? displayIdOf(parent) : null,
      links: input.links,
      anchors: taskAnchors(input.anchors, project.root),
      touches: taskTouches(input.touches, project.root),
      closeReason: null,
      origin: input.origin ?? null,
      documentPath: input.documentPath ?? null,
      version: 1,
      createdAt: now,
      updatedAt: now,
      completedAt: status.category === 'done' ? now : null,
      archivedAt: null,
      deletedAt: null,
      // Derived; the store keeps them. The labels are written with the row, which spares the
      // store rewriting it once per label as they are added.
      openBlockers: 0,
      openBlockerIds: [],
      checklistDone: 0,
      checklistTotal: checklist.length,
      labels,
      blockedBy: [],
      blocks: [],
      children: [],
    };
    await tx.insertTask(row, checklist);
    for (const b of blockers) await linkBlocker(tx, row, b, now);
    if (blockers.length) await tx.refreshOpenBlockers([uid]);
    await tx.reindexTask(uid, true);
    await record(tx, ctx, {
      projectUid: project.uid,
      taskUid: uid,
      type: 'task.created',
      changes: {
        title: { before: null, after: row.title },
        status: { before: null, after: row.status },
        ...(row.substatus !== null ? { substatus: { before: null, after: row.substatus } } : {}),
        ...(row.slug !== null ? { slug: { before: null, after: row.slug } } : {}),
        ...(labels.length ? { labels: { before: null, after: labels } } : {}),
        ...(blockers.length ? { blockedBy: { before: null, after: blockers.map(displayIdOf) } } : {}),
        ...(parent ? { parentId: { before: null, after: displayIdOf(parent) } } : {}),
      },
    });
    // With blockers, read back what the triggers derived (blockedBy in the blockers' order).
    // Without, the row is exactly as written (nothing blocks on a new task, it has no children, its
    // parent's id and labels went in with it; the create test compares it with get_task). A new task
    // has no comments and the checklist just written.
    const stored = blockers.length ? (await tx.getTask(uid))! : row;
    return hydrate(tx, stored, now, ctx.actor, { checklist, comments: [] });
  });
}

export const GetTaskInput = lazy(() => z.object({ id: TaskRef }));

export async function getTask(ctx: Context, input: z.infer<ReturnType<typeof GetTaskInput>>): Promise<Task> {
  return ctx.store.read(async (tx) => hydrate(tx, await resolveTask(tx, input.id), nowIso(ctx), ctx.actor));
}

export const ListTasksInput = lazy(() =>
  z.object({
    project: z.string().optional(),
    allProjects: z.boolean().default(false).describe('Ignore the default project'),
    status: z.union([z.string(), z.array(z.string())]).optional(),
    category: z.union([Category, z.array(Category)]).optional(),
    kind: z.union([Kind, z.array(Kind)]).optional(),
    priority: z.union([Priority, z.array(Priority)]).optional(),
    labels: Labels.optional().describe('Any of these'),
    labelsAll: Labels.optional().describe('All of these'),
    assignee: z.string().optional().describe('"none": unassigned'),
    substatus: z.string().optional(),
    slug: z.string().optional(),
    parentId: TaskRef.optional(),
    ready: z.boolean().optional(),
    updatedSince: z.iso.datetime({ offset: true }).optional().describe('ISO time'),
    includeDone: z.boolean().default(false).describe('Also done and canceled'),
    includeArchived: z.boolean().default(false),
    deleted: z.boolean().default(false).describe('List soft-deleted tasks instead'),
    sort: z.enum(TASK_SORTS).default('priority').describe('priority: ready order'),
    limit: pageLimit('list_tasks'),
    cursor: z.string().max(500).optional(),
    include: IncludeDetails(),
  }),
);
export type ListTasksInput = z.infer<ReturnType<typeof ListTasksInput>>;

const arr = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

export async function buildFilter(tx: Tx, ctx: Context, input: Omit<ListTasksInput, 'sort' | 'limit' | 'cursor'>): Promise<TaskFilter> {
  const f: TaskFilter = {
    includeDone: input.includeDone,
    includeArchived: input.includeArchived,
    ...(input.deleted ? { onlyDeleted: true, includeArchived: true, includeDone: true } : {}),
  };
  if (input.project && !input.allProjects) {
    const p = await resolveProject(tx, input.project);
    f.projectUids = [p.uid];
    const wanted = arr(input.status);
    if (wanted) {
      const statuses = await tx.getStatuses(p.uid);
      f.statuses = wanted.map((s) => findStatus(statuses, s, p.key).name);
    }
  } else {
    if (input.status !== undefined) f.statuses = arr(input.status);
    if (!f.includeArchived) {
      const active = await activeProjectUids(tx);
      if (active) f.projectUids = active;
    }
  }
  if (input.category !== undefined) f.categories = arr(input.category);
  if (input.kind !== undefined) f.kinds = arr(input.kind);
  if (input.priority !== undefined) f.priorities = arr(input.priority);
  if (input.labels?.length) f.labelsAny = input.labels;
  if (input.labelsAll?.length) f.labelsAll = input.labelsAll;
  if (input.assignee !== undefined) f.assignee = input.assignee === 'none' ? null : input.assignee;
  if (input.substatus !== undefined) f.substatuses = [input.substatus];
  if (input.slug !== undefined) f.slug = input.slug;
  if (input.parentId) f.parentUid = (await resolveTask(tx, input.parentId, 'parentId')).uid;
  if (input.updatedSince) f.updatedSince = new Date(input.updatedSince).toISOString();
  if (input.ready) f.ready = { now: nowIso(ctx), actor: ctx.actor };
  return f;
}

export async function listTasks(ctx: Context, input: ListTasksInput): Promise<{ tasks: TaskSummary[]; total: number; nextCursor: string | null }> {
  return ctx.store.read(async (tx) => {
    const { sort, limit, cursor, ...rest } = input;
    const filter = await buildFilter(tx, ctx, rest);
    // The cursor is bound to the query, not to the moment it ran.
    const query = { filter: { ...filter, ready: filter.ready && { ...filter.ready, now: undefined } }, sort };
    // Keyset: the next page starts after the last row's sort key, so writes between pages shift nothing.
    const after = cursor ? decodeCursor(cursor, query, sort) : undefined;
    const { rows, total, more } = await tx.listTasks(filter, sort, limit, after);
    const tasks = summarize(rows, nowIso(ctx), ctx.actor);
    const next = more && rows.length ? encodeCursor(sortKeyOf(rows[rows.length - 1]!, sort), query) : null;
    return { tasks, total, nextCursor: next };
  });
}

export const UpdateTaskInput = lazy(() =>
  z.object({
    id: TaskRef,
    expectedVersion: z.number().int().min(1).optional(),
    title: Title.optional(),
    description: Description.optional(),
    appendDescription: z.string().max(100_000).optional().describe('Appended after a blank line'),
    status: z.string().optional(),
    position: z.number().int().min(0).optional().describe('Index within the lane (0 = top)'),
    kind: Kind.optional(),
    priority: Priority.optional(),
    score: Score.optional(),
    labels: Labels.optional().describe('Replaces all labels'),
    addLabels: Labels.optional(),
    removeLabels: Labels.optional(),
    assignee: Assignee.nullable().optional().describe('null unassigns'),
    substatus: Substatus.nullable().optional(),
    slug: Slug.nullable().optional(),
    parentId: TaskRef.nullable().optional().describe('null detaches from the parent'),
    links: Links().optional().describe('Merged into existing links'),
    anchors: Anchors.optional(),
    touches: Touches.optional().describe('Replaces the reserved paths'),
    closeReason: CloseReason.nullable().optional(),
    documentPath: DocumentPath.nullable().optional(),
  }),
);
export type UpdateTaskInput = z.infer<ReturnType<typeof UpdateTaskInput>>;

export async function updateTask(ctx: Context, input: UpdateTaskInput): Promise<Task> {
  return ctx.store.write(async (tx) => {
    const row = await resolveLiveTask(tx, input.id);
    checkVersion(row, input.expectedVersion);
    const now = nowIso(ctx);
    const patch: Parameters<typeof commitTaskChange>[3] = {};
    const extra: Parameters<typeof commitTaskChange>[5] = {};
    for (const k of ['title', 'description', 'kind', 'priority', 'score', 'assignee', 'substatus', 'slug', 'closeReason', 'documentPath'] as const) {
      if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
    }
    if (input.anchors !== undefined) patch.anchors = taskAnchors(input.anchors, (await tx.getProjectByUid(row.projectUid))?.root ?? null);
    if (input.touches !== undefined) patch.touches = taskTouches(input.touches, (await tx.getProjectByUid(row.projectUid))?.root ?? null);
    if (input.appendDescription) {
      const base = patch.description ?? row.description;
      patch.description = `${base}${base ? '\n\n' : ''}${input.appendDescription}`;
    }
    if (input.links) patch.links = { ...row.links, ...input.links };
    if (input.status !== undefined || input.position !== undefined) {
      const statuses = await statusesOf(tx, row);
      const s = input.status !== undefined ? findStatus(statuses, input.status, row.projectKey) : findStatus(statuses, row.status, row.projectKey);
      if (s.name !== row.status) Object.assign(patch, statusPatch(row, s, now));
      // A move into a done lane is a completion: a project that requires evidence takes it through complete_task.
      if (s.category === 'done' && row.category !== 'done' && (await tx.getProjectByUid(row.projectUid))?.requireEvidence) throw evidenceRequired(displayIdOf(row), row.projectKey);
      if (s.name !== row.status || input.position !== undefined) patch.position = await positionAt(tx, row, s.name, input.position);
    }
    if (input.labels || input.addLabels || input.removeLabels) {
      const before = row.labels;
      let next = input.labels ?? before;
      if (input.addLabels) next = [...next, ...input.addLabels];
      if (input.removeLabels) next = next.filter((l) => !input.removeLabels!.includes(l));
      const after = normLabels(next);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        await tx.setLabels(row.uid, after);
        extra.labels = { before, after };
      }
    }
    if (input.parentId !== undefined) {
      const change = await setParent(tx, row, input.parentId);
      if (change) {
        patch.parentUid = change.parentUid;
        extra.parentId = { before: row.parentId, after: change.parentId };
      }
    }
    const type = patch.status ? 'task.moved' : 'task.updated';
    const saved = await commitTaskChange(tx, ctx, row, patch, type, extra, { reindex: 'labels' in extra });
    return hydrate(tx, saved, now, ctx.actor);
  });
}
