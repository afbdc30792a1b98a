/**
 * The lines of Cairn's JSONL export, one entity per line with keys in a fixed order, so that the
 * same workspace always gives the same bytes and a change to one task changes only its lines.
 */
import type { Status } from '../model/workflow.js';
import type { ProjectRow } from '../ports.js';
import type { StoredEvent, TaskDump } from '../transfer-port.js';

export const EXPORT_FORMAT = 1;

/** The first line: what the file is, never when it was made (exports must be byte-stable). */
export const headerLine = (): string => JSON.stringify({ entity: 'cairn-export', format: EXPORT_FORMAT });

export function projectLine(p: ProjectRow, statuses: Status[], nextSeq: number): string {
  return JSON.stringify({
    entity: 'project',
    key: p.key,
    uid: p.uid,
    name: p.name,
    description: p.description,
    root: p.root,
    aliases: p.aliases,
    statuses: statuses.map((s) => ({ name: s.name, displayName: s.displayName, color: s.color, category: s.category })),
    nextSeq,
    archivedAt: p.archivedAt,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  });
}

/** The task line: its own fields, checklist and blocking edges; comments and events follow on their own lines. */
export function taskLine(d: TaskDump): string {
  const t = d.row;
  return JSON.stringify({
    entity: 'task',
    id: `${t.projectKey}-${t.seq}`,
    uid: t.uid,
    title: t.title,
    status: t.status,
    kind: t.kind,
    priority: t.priority,
    score: t.score,
    position: t.position,
    labels: t.labels,
    assignee: t.assignee,
    substatus: t.substatus,
    slug: t.slug,
    claim: t.claimedBy !== null ? { actor: t.claimedBy, expiresAt: t.claimExpiresAt } : null,
    parent: t.parentUid !== null ? { id: t.parentId, uid: t.parentUid } : null,
    blockedBy: d.blockers.map((b) => ({ id: b.blockerId, uid: b.blockerUid, at: b.createdAt })),
    checklist: d.checklist.map((i) => ({ text: i.text, checked: i.checked })),
    links: t.links,
    anchors: t.anchors,
    touches: t.touches,
    closeReason: t.closeReason,
    origin: t.origin,
    documentPath: t.documentPath,
    description: t.description,
    version: t.version,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    completedAt: t.completedAt,
    archivedAt: t.archivedAt,
    deletedAt: t.deletedAt,
  });
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
