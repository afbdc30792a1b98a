/**
 * A task's plan document: `<project root>/.cairn/docs/KEY-N.md` (or the path the task records),
 * found on disk — `active` when the file is there, `pending` when the task names a document not
 * written yet, `missing` otherwise — and, when asked, created as a shell from the task.
 */
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { parseTaskRef, TaskRef } from '../model/ids.js';
import type { Task } from '../model/task.js';
import { locateProject, openRepositoryWorkspace, type OpenedWorkspace } from './locate-project.js';
import { hydrate } from './hydrate.js';
import { normalizeAnchors, projectRootOf, WORKSPACE_DIR } from '../places/repo-paths.js';
import { resolveTask } from './resolve.js';
import { updateTask } from './tasks.js';

export const GetTaskDocumentInput = lazy(() =>
  z.object({
    id: TaskRef,
    repository: z.string().trim().min(1).max(1000).optional().describe("Repository whose .cairn/ workspace holds the task (default: this workspace's)"),
    target: z.string().trim().min(1).max(200).optional().describe('Or name that repository: a project key, alias, package name or repo slug'),
    requireExisting: z.boolean().default(true).describe('false: create a shell document from the task when there is none'),
  }),
);

export const DocumentStatus = z.enum(['active', 'pending', 'missing']);
export const TaskDocumentOutput = lazy(() =>
  z.object({
    taskId: z.string(),
    documentPath: z.string().describe('Absolute path of the markdown plan document'),
    status: DocumentStatus.describe('active: the file exists; pending: recorded, not written yet; missing: none'),
    created: z.boolean().describe('true: this call wrote the shell document'),
    repository: z.string().nullable(),
  }),
);
export type TaskDocumentOutput = z.infer<ReturnType<typeof TaskDocumentOutput>>;

/** The shell written for a task with no document: what the task says, ready to be planned in. */
export function documentShell(task: Task, at: string): string {
  const lines = [
    `# ${task.id}: ${task.title}`,
    '',
    `<!-- Plan document for Cairn task ${task.id}, created ${at}. Edit freely; Cairn does not rewrite it. -->`,
    '',
    `- Status: ${task.status}`,
    `- Priority: ${task.priority}`,
    ...(task.origin ? [`- Handed off from: ${task.origin}`] : []),
    ...(task.labels.length ? [`- Tags: ${task.labels.join(', ')}`] : []),
    ...(task.anchors.length ? ['- Anchors:', ...task.anchors.map((a) => `  - \`${a}\``)] : []),
    '',
    '## Details',
    '',
    task.description.trim() || '_No details given._',
    '',
    '## Plan',
    '',
    ...(task.checklist.length ? task.checklist.map((c) => `- [${c.checked ? 'x' : ' '}] ${c.text}`) : ['- [ ] ']),
    '',
  ];
  return lines.join('\n');
}

function insideRepository(abs: string, root: string, id: string): void {
  try {
    normalizeAnchors([abs], root);
  } catch {
    throw new CairnError(
      'ANCHOR_OUTSIDE_REPOSITORY',
      `Task ${id} names the document ${abs}, which is outside its repository ${root}; Cairn reads and writes plan documents only inside the repository. Nothing was changed.`,
      {
        suggestions: [`update_task {id: "${id}", documentPath: ".cairn/docs/${id}.md"}`],
        details: { documentPath: abs, repository: root },
      },
    );
  }
}

/**
 * The workspace holding the task: the repository given, else the one `target` names, else this one —
 * or, when the task's project key is not here, the registered repository that has that key.
 */
async function taskWorkspace(ctx: Context, input: { id: string; repository?: string | undefined; target?: string | undefined }): Promise<OpenedWorkspace> {
  if (input.repository) return openRepositoryWorkspace(ctx, input.repository);
  if (input.target) return (await locateProject(ctx, input.target)).ws;
  const key = parseTaskRef(input.id);
  if (key.type !== 'display' || !ctx.repositories || !ctx.openWorkspace) return openRepositoryWorkspace(ctx, undefined);
  // Found here (by key, alias or a linked source's id), or its project is here: this workspace answers.
  const here = await ctx.store.read(async (tx) => (await tx.getProjectByKey(key.projectKey)) ?? (await resolveTask(tx, input.id).catch(() => undefined)));
  if (here) return openRepositoryWorkspace(ctx, undefined);
  return (await locateProject(ctx, key.projectKey).catch(() => ({ ws: openRepositoryWorkspace(ctx, undefined) }))).ws;
}

export async function getTaskDocument(ctx: Context, input: z.infer<ReturnType<typeof GetTaskDocumentInput>>): Promise<TaskDocumentOutput> {
  const ws = await taskWorkspace(ctx, input);
  try {
    const { task, root } = await ws.store.read(async (tx) => {
      const row = await resolveTask(tx, input.id);
      const project = await tx.getProjectByUid(row.projectUid);
      return { task: await hydrate(tx, row, nowIso(ctx), ctx.actor), root: projectRootOf(project?.root ?? null, ws.root) };
    });
    if (!root && !(task.documentPath && isAbsolute(task.documentPath))) {
      throw new CairnError(
        'VALIDATION_ERROR',
        `Project ${task.project} has no root folder and its workspace is not inside a repository, so task ${task.id} has no place for a document. Nothing was changed.`,
        {
          suggestions: [`update_project {key: "${task.project}", root: "/path/to/repo"}`],
        },
      );
    }
    const recorded = task.documentPath;
    const rel = recorded ?? [WORKSPACE_DIR, 'docs', `${task.id}.md`].join('/');
    const abs = isAbsolute(rel) ? rel : join(root!, ...rel.split('/'));
    // A recorded path is free text (create_task documentPath): never look at or write a file outside the repository.
    if (root) insideRepository(abs, root, task.id);
    else if (!input.requireExisting) {
      throw new CairnError('VALIDATION_ERROR', `Task ${task.id}'s document ${abs} has no repository to be written in. Nothing was changed.`, {
        suggestions: [`update_project {key: "${task.project}", root: "/path/to/repo"}`],
      });
    }
    const out = { taskId: task.id, documentPath: abs, repository: root, created: false };
    if (existsSync(abs)) return { ...out, status: 'active' };
    if (input.requireExisting) return { ...out, status: recorded ? 'pending' : 'missing' };
    mkdirSync(dirname(abs), { recursive: true });
    let created = true;
    try {
      writeFileSync(abs, documentShell(task, nowIso(ctx)), { flag: 'wx' });
    } catch (err) {
      // Another agent wrote it first: theirs stands.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      created = false;
    }
    if (!recorded) {
      const stored =
        root && !isAbsolute(rel)
          ? rel
          : relative(root ?? '', abs)
              .split(sep)
              .join('/');
      await updateTask({ ...ctx, store: ws.store }, { id: task.id, documentPath: stored });
    }
    return { ...out, status: 'active', created };
  } finally {
    await ws.close();
  }
}
