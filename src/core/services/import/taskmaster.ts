/**
 * Task Master's `.taskmaster/tasks/tasks.json` (eyaltoledano/claude-task-master; fixtures made by the
 * task-master-ai CLI): tagged task lists (`{"master": {"tasks": […]}, "<tag>": …}`, or the older
 * untagged `{"tasks": […]}`), each task with details, testStrategy, priority, dependencies and
 * subtasks. Subtasks become child tasks; a tag other than master becomes a label on its tasks.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Priority } from '../../model/task.js';
import { keyFrom } from '../../rules/project-key.js';
import { readBounded } from './read-bounded.js';
import { fitLabels, fitTitle, importError, reader, type ImportItem, type IncomingTask, type SourceAt } from './model.js';

const STATUS: Record<string, string> = {
  pending: 'todo',
  'in-progress': 'in_progress',
  review: 'review',
  done: 'done',
  deferred: 'backlog',
  cancelled: 'canceled',
  canceled: 'canceled',
  blocked: 'blocked',
};
const PRIORITY: Record<string, Priority> = { critical: 'urgent', high: 'high', medium: 'medium', low: 'low' };

function tasksFile(path: string): string {
  if (!statSync(path).isDirectory()) return path;
  const inRepo = join(path, '.taskmaster', 'tasks', 'tasks.json');
  return existsSync(inRepo) ? inRepo : join(path, 'tasks', 'tasks.json');
}

/** The repository a tasks file belongs to (the folder holding .taskmaster/). */
function repoOf(file: string): string {
  const abs = resolve(file);
  const tm = abs.split(/[\\/]/).lastIndexOf('.taskmaster');
  return tm > 0 ? abs.split(/[\\/]/).slice(0, tm).join('/') : dirname(abs);
}

/** Rough line numbers for errors: the line where `"id": N` of a task first appears after its tag. */
function lineOf(text: string, tag: string, id: string): number | undefined {
  const tagAt = text.indexOf(`"${tag}"`);
  const m = new RegExp(`"id":\\s*"?${id.replace('.', '\\.')}"?[,\\s]`).exec(text.slice(Math.max(0, tagAt)));
  return m ? text.slice(0, Math.max(0, tagAt) + m.index).split('\n').length : undefined;
}

function describe(r: ReturnType<typeof reader>): string {
  const parts = [r.strOr('description', '') ?? ''];
  const details = r.strOr('details', '');
  const test = r.strOr('testStrategy', '');
  if (details) parts.push(`## Details\n\n${details}`);
  if (test) parts.push(`## Test strategy\n\n${test}`);
  return parts.filter(Boolean).join('\n\n');
}

export async function* readTaskMaster(path: string, project: string | undefined): AsyncGenerator<ImportItem> {
  const file = tasksFile(path);
  const text = readBounded(file);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw importError({ file }, null, `not valid JSON (${(err as Error).message})`);
  }
  const root = reader({ file }, doc);
  const tagged = Array.isArray(root.obj.tasks) ? { master: root.obj } : root.obj;
  const repo = basename(repoOf(file));
  yield {
    type: 'project',
    at: { file },
    ref: 'taskmaster',
    key: project ?? keyFrom(repo, 'TM'),
    name: repo || 'Task Master',
    description: `Imported from Task Master (${file})`,
    root: repoOf(file),
    aliases: [],
    template: 'default',
    archivedAt: null,
  };
  for (const tag of Object.keys(tagged).sort((a, b) => (a === 'master' ? -1 : b === 'master' ? 1 : a.localeCompare(b)))) {
    const list = reader({ file }, tagged[tag], tag);
    const labels = tag === 'master' ? [] : fitLabels([tag]);
    for (const [i, t] of list.arr('tasks').entries()) {
      const r = reader({ file }, t, `${tag}.tasks[${i}]`);
      const id = String(r.obj.id);
      const at: SourceAt = { file, ...(lineOf(text, tag, id) ? { line: lineOf(text, tag, id)! } : {}) };
      const task = reader(at, t, `${tag}.tasks[${i}]`);
      yield tmTask(
        at,
        task,
        `${tag}:${id}`,
        null,
        task.arr('dependencies').map((d) => `${tag}:${String(d)}`),
        labels,
      );
      for (const [j, s] of task.arr('subtasks').entries()) {
        const sr = reader(at, s, `${tag}.tasks[${i}].subtasks[${j}]`);
        const sid = `${id}.${String(sr.obj.id)}`;
        // A subtask's number dependency is a sibling; "2.1" names any subtask of the tag.
        const deps = sr.arr('dependencies').map((d) => (typeof d === 'number' ? `${tag}:${id}.${d}` : `${tag}:${String(d)}`));
        yield tmTask(at, sr, `${tag}:${sid}`, `${tag}:${id}`, deps, labels);
      }
    }
  }
}

function tmTask(at: SourceAt, r: ReturnType<typeof reader>, sourceId: string, parent: string | null, deps: string[], labels: string[]): IncomingTask {
  const status = r.strOr('status', 'pending') ?? 'pending';
  const mapped = STATUS[status];
  if (!mapped) throw importError(at, 'status', `"${status}" is not a Task Master status (${Object.keys(STATUS).join(', ')})`);
  const priority = r.strOr('priority', null);
  if (priority !== null && !PRIORITY[priority]) throw importError(at, 'priority', `"${priority}" is not a Task Master priority (critical, high, medium, low)`);
  return {
    type: 'task',
    at,
    projectRef: 'taskmaster',
    sourceId,
    shownId: sourceId.replace(/^master:/, ''),
    title: fitTitle(r.strOr('title', '') ?? '', sourceId),
    description: describe(r),
    status: mapped,
    kind: 'task',
    priority: priority ? PRIORITY[priority]! : 'none',
    score: 0,
    labels,
    assignee: null,
    substatus: null,
    slug: null,
    claim: null,
    parent,
    blockedBy: deps.map((ref) => ({ ref })),
    checklist: [],
    comments: [],
    links: {},
    anchors: [],
    closeReason: null,
    origin: null,
    documentPath: null,
  };
}
