/**
 * The lines of Cairn's JSONL export, one entity per line with keys in a fixed order, so that the
 * same workspace always gives the same bytes and a change to one task changes only its lines.
 */
import type { Status } from '../model/workflow.js';
import type { ProjectRow } from '../ports.js';
import type { StoredEvent, TaskDump } from '../transfer-port.js';
import { TASK_FIELD_NAMES, TASK_FIELDS } from './export-fields.js';

export const EXPORT_FORMAT = 1;

/** The first line: what the file is, never when it was made (exports must be byte-stable). */
export const headerLine = (): string => JSON.stringify({ entity: 'cairn-export', format: EXPORT_FORMAT });

export function projectLine(p: ProjectRow, statuses: Status[], nextSeq: number): string {
  // Typed by ProjectRow's keys: a field added to projects fails the build until the line carries it.
  const own: { [K in keyof Required<ProjectRow>]: ProjectRow[K] } = {
    key: p.key,
    uid: p.uid,
    name: p.name,
    description: p.description,
    root: p.root,
    aliases: p.aliases,
    requireEvidence: p.requireEvidence ?? false,
    archivedAt: p.archivedAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
  const { archivedAt, createdAt, updatedAt, ...head } = own;
  return JSON.stringify({
    entity: 'project',
    ...head,
    statuses: statuses.map((s) => ({ name: s.name, displayName: s.displayName, color: s.color, category: s.category })),
    nextSeq,
    archivedAt,
    createdAt,
    updatedAt,
  });
}

/** The task line: its own fields (TASK_FIELDS, in order), checklist and blocking edges; comments and events follow on their own lines. */
export function taskLine(d: TaskDump): string {
  const line: Record<string, unknown> = { entity: 'task' };
  for (const k of TASK_FIELD_NAMES) line[k] = TASK_FIELDS[k].line(d);
  return JSON.stringify(line);
}

export function commentLines(d: TaskDump): string[] {
  const task = `${d.row.projectKey}-${d.row.seq}`;
  return d.comments.map((c) => JSON.stringify({ entity: 'comment', task, taskUid: d.row.uid, id: c.id, author: c.author, kind: c.kind, body: c.body, createdAt: c.createdAt }));
}

/** An event line; `task` is the display id when the task is known to the export, else null (a purged task). */
export function eventLine(e: StoredEvent, project: string, task: string | null): string {
  return JSON.stringify({
    entity: 'event',
    seq: e.seq,
    project,
    task,
    taskUid: e.taskUid,
    at: e.at,
    actor: e.actor,
    ...(e.via !== null ? { via: e.via } : {}),
    type: e.type,
    changes: JSON.parse(e.changes) as unknown,
  });
}
