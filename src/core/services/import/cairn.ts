/**
 * Reads a Cairn JSONL export (core/services/export-lines.ts) line by line: a project line, then each
 * task line followed by its comments and events. A task is handed on when the next entity starts,
 * so memory holds one task at a time however long the file.
 */
import { statSync } from 'node:fs';
import { CATEGORIES, type Status } from '../../model/workflow.js';
import { COMMENT_KINDS } from '../../model/task.js';
import { TASK_FIELD_NAMES, TASK_FIELDS } from '../export-fields.js';
import type { StoredEvent } from '../../transfer-port.js';
import { boundedLines } from './read-bounded.js';
import { importError, reader, type ImportItem, type IncomingProject, type IncomingTask, type ProgressFn, type SourceAt } from './model.js';

function project(at: SourceAt, o: unknown): IncomingProject {
  const r = reader(at, o);
  const statuses: Status[] = r.arr('statuses').map((s, i) => {
    const f = reader(at, s, `statuses[${i}]`);
    return { name: f.str('name'), displayName: f.str('displayName'), color: f.str('color'), category: f.oneOf('category', CATEGORIES), position: i };
  });
  if (statuses.length === 0) throw importError(at, 'statuses', 'a project needs at least one status');
  const key = r.str('key');
  return {
    type: 'project',
    at,
    ref: key,
    uid: r.str('uid'),
    key,
    name: r.str('name'),
    description: r.strOr('description', ''),
    root: r.strOr('root', null),
    aliases: r.strs('aliases'),
    requireEvidence: r.bool('requireEvidence', false),
    statuses,
    template: 'default',
    nextSeq: r.numOr('nextSeq', undefined),
    archivedAt: r.strOr('archivedAt', null),
    createdAt: r.str('createdAt'),
    updatedAt: r.str('updatedAt'),
    events: [],
  };
}

function task(at: SourceAt, o: unknown, projectRef: string): IncomingTask {
  const r = reader(at, o);
  const t = { type: 'task', at, projectRef, comments: [], events: [] } as unknown as Record<keyof IncomingTask, unknown>;
  for (const k of TASK_FIELD_NAMES) {
    const f = TASK_FIELDS[k];
    t[f.into] = f.read(r, at);
  }
  t.sourceId = t.uid;
  return t as unknown as IncomingTask;
}

function event(at: SourceAt, o: unknown): StoredEvent {
  const r = reader(at, o);
  const changes = r.field('changes').obj;
  return {
    seq: r.num('seq'),
    at: r.str('at'),
    actor: r.str('actor'),
    via: r.strOr('via', null),
    projectUid: null,
    taskUid: r.strOr('taskUid', null),
    type: r.str('type'),
    changes: JSON.stringify(changes),
  };
}

/** The items of a Cairn export, in file order. */
export async function* readCairnExport(file: string, progress?: ProgressFn): AsyncGenerator<ImportItem> {
  const size = statSync(file).size || 1;
  let currentProject: IncomingProject | undefined;
  let currentTask: IncomingTask | undefined;
  let projectYielded = true;
  for await (const { text, line: n, bytes } of boundedLines(file)) {
    if (n % 5000 === 0) progress?.(Math.min(1, bytes / size));
    if (text.trim() === '') continue;
    const at = { file, line: n };
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch (err) {
      throw importError(at, null, `not valid JSON (${(err as Error).message})`);
    }
    const entity = (o as { entity?: unknown } | null)?.entity;
    if (n === 1 || entity === 'cairn-export') {
      if (entity !== 'cairn-export') throw importError(at, 'entity', 'the first line of a Cairn export is {"entity":"cairn-export",…}');
      const format = reader(at, o).num('format');
      if (format !== 1) throw importError(at, 'format', `format ${format} is newer than this Cairn reads (1)`);
      continue;
    }
    if (entity === 'project' || entity === 'task') {
      if (currentTask) yield currentTask;
      currentTask = undefined;
    }
    if (entity === 'project') {
      if (currentProject && !projectYielded) yield currentProject;
      currentProject = project(at, o);
      projectYielded = false;
    } else if (entity === 'task') {
      if (!currentProject) throw importError(at, 'entity', 'a task line comes before any project line');
      if (!projectYielded) {
        yield currentProject;
        projectYielded = true;
      }
      currentTask = task(at, o, currentProject.ref);
    } else if (entity === 'comment') {
      if (!currentTask) throw importError(at, 'entity', 'a comment line must follow its task line');
      const r = reader(at, o);
      if (r.str('taskUid') !== currentTask.uid) throw importError(at, 'taskUid', `belongs to task ${r.str('taskUid')}, not to the task line before it`);
      currentTask.comments.push({ id: r.str('id'), author: r.str('author'), kind: r.oneOf('kind', COMMENT_KINDS), body: r.str('body'), createdAt: r.str('createdAt') });
    } else if (entity === 'event') {
      const e = event(at, o);
      if (currentTask) currentTask.events!.push(e);
      else if (currentProject) currentProject.events!.push(e);
      else throw importError(at, 'entity', 'an event line comes before any project line');
    } else {
      throw importError(at, 'entity', `unknown entity ${JSON.stringify(entity)} (expected project, task, comment or event)`);
    }
  }
  if (currentTask) yield currentTask;
  if (currentProject && !projectYielded) yield currentProject;
  progress?.(1);
}
