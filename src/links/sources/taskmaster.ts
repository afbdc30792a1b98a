/**
 * Task Master's tasks.json as a linked source: tagged task lists whose tasks have subtasks. A record
 * is a task (`tag:3`) or a subtask (`tag:3.1`); its description, details and test strategy make the
 * task's description (import/taskmaster.ts), and a write splits them back. Cairn writes the file as
 * Task Master does (the whole JSON, two-space indented), keeping every key it does not know.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CairnError } from '../../core/errors.js';
import { readTaskMaster } from '../../core/services/import/taskmaster.js';
import type { Priority } from '../../core/model/task.js';
import type { Held, HeldField, LinkedTask, LinkSource, SourceRead, WriteBatch, WriteResult } from '../source.js';
import { SingleFileSource } from './single-file.js';
import { checkUnmoved, replaceFile } from './atomic.js';

const FIELDS: readonly HeldField[] = ['title', 'description', 'status', 'priority', 'parent', 'blockedBy'];
/** Cairn's default statuses as Task Master's; a status of another name goes by its category. */
const TM_STATUS: Record<string, string> = { todo: 'pending', in_progress: 'in-progress', review: 'review', done: 'done', backlog: 'deferred', canceled: 'cancelled', blocked: 'blocked' };
const FROM_TM: Record<string, string> = {
  pending: 'todo',
  'in-progress': 'in_progress',
  review: 'review',
  done: 'done',
  deferred: 'backlog',
  cancelled: 'canceled',
  canceled: 'canceled',
  blocked: 'blocked',
};
const TM_PRIORITY: Partial<Record<Priority, string>> = { urgent: 'critical', high: 'high', medium: 'medium', low: 'low' };

/** The three texts a task's description is made of, and the description they make (as the import composes it). */
function split(description: string): { description: string; details: string; testStrategy: string } {
  const test = /\n*## Test strategy\n\n([\s\S]*)$/.exec(description);
  const rest = test ? description.slice(0, test.index) : description;
  const details = /\n*## Details\n\n([\s\S]*)$/.exec(rest);
  const main = details ? rest.slice(0, details.index) : rest;
  return { description: main.trim(), details: details?.[1]?.trim() ?? '', testStrategy: test?.[1]?.trim() ?? '' };
}

function compose(p: { description: string; details: string; testStrategy: string }): string {
  return [p.description, p.details && `## Details\n\n${p.details}`, p.testStrategy && `## Test strategy\n\n${p.testStrategy}`].filter(Boolean).join('\n\n');
}

/** Task Master requires a description: a task without one is written with its title as its description. */
function texts(h: Held): ReturnType<typeof split> {
  const t = split(h.description);
  return { ...t, description: t.description || h.title.trim() };
}

export function taskmasterView(h: Held): Held {
  const status = FROM_TM[TM_STATUS[h.status] ?? 'pending'] ?? 'todo';
  return { ...h, description: compose(texts(h)), status: TM_STATUS[h.status] ? h.status : status, title: h.title.trim() };
}

type Json = Record<string, any>;

/** A record's tag, task id and subtask id (`feature:3.1`). */
function parseId(sourceId: string): { tag: string; task: string; sub: string | undefined } {
  const at = sourceId.lastIndexOf(':');
  const [task, sub] = sourceId.slice(at + 1).split('.') as [string, string | undefined];
  return { tag: sourceId.slice(0, at), task, sub };
}

export class TaskMasterSource extends SingleFileSource implements LinkSource {
  readonly kind = 'taskmaster' as const;
  readonly fields = FIELDS;
  readonly label: string;

  readonly repository: string;

  constructor(path: string) {
    super(path);
    this.label = `Task Master's ${path}`;
    const parts = path.split('/');
    const at = parts.lastIndexOf('.taskmaster');
    this.repository = at > 0 ? parts.slice(0, at).join('/') : dirname(path);
  }

  view = taskmasterView;

  read(): Promise<SourceRead> {
    return this.exists() ? this.collect(readTaskMaster(this.path, undefined), this.nothing(), true) : Promise.resolve(this.nothing());
  }

  write(batch: WriteBatch): WriteResult {
    checkUnmoved(this.path, '', batch.stamps.get(''));
    const doc = JSON.parse(readFileSync(this.path, 'utf8')) as Json;
    // The older untagged file ({"tasks": […]}) is the master tag.
    const tagged: Json = Array.isArray(doc.tasks) ? { master: doc } : doc;
    const result: WriteResult = { items: [], removed: [], files: new Map(), projects: [], identities: [] };
    for (const d of batch.deletes) this.#remove(tagged, d.item.sourceId, result);
    // Parents first, so a subtask made with its parent in one write finds it.
    const upserts = [...batch.upserts].sort((a, b) => Number(a.held.parent !== null) - Number(b.held.parent !== null));
    for (const t of upserts) result.items.push({ taskUid: t.row.uid, sourceId: this.#upsert(tagged, t, batch.now), file: null });
    result.files.set('', replaceFile(this.path, `${JSON.stringify(doc, null, 2)}\n`));
    return result;
  }

  #tasksOf(tagged: Json, tag: string): Json[] {
    tagged[tag] ??= { tasks: [] };
    tagged[tag].tasks ??= [];
    return tagged[tag].tasks as Json[];
  }

  #remove(tagged: Json, sourceId: string, result: WriteResult): void {
    const { tag, task, sub } = parseId(sourceId);
    const tasks = this.#tasksOf(tagged, tag);
    const parent = tasks.find((t) => String(t.id) === task);
    if (sub === undefined) {
      if (parent) tasks.splice(tasks.indexOf(parent), 1);
      // Task Master's remove-task also drops the dependencies on it.
      for (const t of tasks) t.dependencies = (t.dependencies ?? []).filter((d: unknown) => String(d) !== task);
    } else if (parent?.subtasks) {
      parent.subtasks = (parent.subtasks as Json[]).filter((s) => String(s.id) !== sub);
    }
    result.removed.push(sourceId);
  }

  /** Writes a task's fields into its record (made when new); returns the record's source id. */
  #upsert(tagged: Json, t: LinkedTask, now: string): string {
    const h = this.view(t.held);
    const parentId = h.parent ?? undefined;
    let sourceId = t.item?.sourceId;
    const tag = sourceId ? parseId(sourceId).tag : parentId ? parseId(parentId).tag : (t.row.labels.find((l) => l !== 'master' && tagged[l]) ?? 'master');
    const tasks = this.#tasksOf(tagged, tag);
    let rec: Json | undefined;
    if (sourceId) {
      const { task, sub } = parseId(sourceId);
      const parent = tasks.find((x) => String(x.id) === task);
      rec = sub === undefined ? parent : (parent?.subtasks as Json[] | undefined)?.find((s) => String(s.id) === sub);
    }
    if (!rec) {
      if (parentId) {
        const parent = tasks.find((x) => String(x.id) === parseId(parentId).task);
        if (!parent) throw new Error(`the parent ${parentId} of ${sourceId ?? 'a new task'} is not in ${this.path}`);
        parent.subtasks ??= [];
        const id = Math.max(0, ...(parent.subtasks as Json[]).map((s) => Number(s.id) || 0)) + 1;
        rec = { id, title: '', description: '', details: '', status: 'pending', dependencies: [], parentTaskId: parent.id };
        (parent.subtasks as Json[]).push(rec);
        sourceId = `${tag}:${parent.id}.${id}`;
      } else {
        const id = Math.max(0, ...tasks.map((x) => Number(x.id) || 0)) + 1;
        rec = { id, title: '', description: '', details: '', testStrategy: '', status: 'pending', dependencies: [], priority: 'medium', subtasks: [] };
        tasks.push(rec);
        sourceId = `${tag}:${id}`;
      }
    }
    const id: string = sourceId!;
    const parts = texts(h);
    const isSub = parseId(id).sub !== undefined;
    Object.assign(rec, { title: h.title, description: parts.description, details: parts.details, status: TM_STATUS[h.status] ?? 'pending' });
    if (!isSub || parts.testStrategy) rec.testStrategy = parts.testStrategy;
    if (TM_PRIORITY[h.priority]) rec.priority = TM_PRIORITY[h.priority];
    else if (!isSub) delete rec.priority;
    const otherTag = h.blockedBy.find((b) => parseId(b).tag !== tag);
    if (otherTag) {
      throw new CairnError(
        'VALIDATION_ERROR',
        `Task ${t.row.projectKey}-${t.row.seq} is in Task Master's tag "${tag}" and its blocker ${otherTag} in tag "${parseId(otherTag).tag}": tasks.json holds dependencies within a tag only. Nothing was changed.`,
        {
          suggestions: ['Make the dependency between tasks of one tag', `Or keep the tasks in one tag (Task Master's move-task --from-tag --to-tag)`],
        },
      );
    }
    rec.dependencies = h.blockedBy.map((b) => {
      const d = parseId(b);
      // A subtask's dependency on a sibling is its number; any other is "task.sub" or the task's id, as Task Master writes them.
      if (isSub && d.sub !== undefined && d.task === parseId(id).task) return Number(d.sub);
      return d.sub === undefined ? d.task : `${d.task}.${d.sub}`;
    });
    if (!isSub) rec.updatedAt = now;
    return id;
  }
}
