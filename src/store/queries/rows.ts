/** Row mapping between stored snake_case columns and the core's row types. */
import type { Selectable } from 'kysely';
import type { ProjectRow, TaskRow, TaskSummaryRow } from '../../core/ports.js';
import type { Category } from '../../core/model/workflow.js';
import { priorityFromRank, priorityRank, type Kind, type TaskSummary } from '../../core/model/task.js';
import type { ProjectsTable, TasksTable } from '../schema.js';

export type TaskRecord = Selectable<TasksTable> & { project_key: string };

/** The columns a summary needs (lists read only these; see TaskSummaryRow). */
export const SUMMARY_COLUMNS = [
  'uid', 'project_uid', 'seq', 'title', 'status', 'category', 'kind', 'priority', 'score', 'position', 'assignee',
  'claimed_by', 'claim_expires_at', 'parent_uid', 'parent_id', 'open_blockers', 'checklist_done', 'checklist_total',
  'rel_labels', 'rel_blocked_by', 'rel_blocks', 'rel_children', 'version', 'created_at', 'updated_at', 'archived_at', 'deleted_at',
] as const;
export type SummaryRecord = Pick<TaskRecord, (typeof SUMMARY_COLUMNS)[number] | 'project_key'>;

// Most tasks have no edges or children: skip the parse for the empty array.
const list = (json: string): string[] => (json === '[]' ? [] : (JSON.parse(json) as string[]));

export function toSummaryRow(r: SummaryRecord): TaskSummaryRow {
  return {
    uid: r.uid,
    projectUid: r.project_uid,
    projectKey: r.project_key,
    seq: r.seq,
    title: r.title,
    status: r.status,
    category: r.category as Category,
    kind: r.kind as Kind,
    priority: priorityFromRank(r.priority),
    score: r.score,
    position: r.position,
    assignee: r.assignee,
    claimedBy: r.claimed_by,
    claimExpiresAt: r.claim_expires_at,
    parentUid: r.parent_uid,
    parentId: r.parent_id,
    openBlockers: r.open_blockers,
    checklistDone: r.checklist_done,
    checklistTotal: r.checklist_total,
    labels: list(r.rel_labels),
    blockedBy: list(r.rel_blocked_by),
    blocks: list(r.rel_blocks),
    children: list(r.rel_children),
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    archivedAt: r.archived_at,
    deletedAt: r.deleted_at,
  };
}

/** The full row: the summary plus the long and detail-only fields. */
export function toTaskRow(r: TaskRecord): TaskRow {
  return {
    ...toSummaryRow(r),
    description: r.description,
    links: JSON.parse(r.links),
    anchors: JSON.parse(r.anchors),
    closeReason: r.close_reason,
    origin: r.origin,
    documentPath: r.document_path,
    completedAt: r.completed_at,
  };
}

const COLUMN: Record<string, string> = {
  projectUid: 'project_uid',
  parentUid: 'parent_uid',
  claimedBy: 'claimed_by',
  claimExpiresAt: 'claim_expires_at',
  closeReason: 'close_reason',
  documentPath: 'document_path',
  updatedAt: 'updated_at',
  completedAt: 'completed_at',
  archivedAt: 'archived_at',
  deletedAt: 'deleted_at',
  createdAt: 'created_at',
};

/** Derived fields a patch may carry that are not stored columns. */
const DERIVED = new Set(['parentId', 'labels', 'blockedBy', 'blocks', 'children', 'openBlockers', 'checklistDone', 'checklistTotal']);

/** Converts a camelCase patch to stored columns, encoding JSON and priority ranks. */
export function toColumns(patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || DERIVED.has(k)) continue;
    if (k === 'priority') out.priority = priorityRank(v as TaskSummary['priority']);
    else if (k === 'links' || k === 'anchors' || k === 'aliases') out[k] = JSON.stringify(v);
    else out[COLUMN[k] ?? k] = v;
  }
  return out;
}

export function toProjectRow(r: Selectable<ProjectsTable>): ProjectRow {
  return {
    uid: r.uid,
    key: r.key,
    name: r.name,
    description: r.description,
    root: r.root,
    aliases: JSON.parse(r.aliases),
    archivedAt: r.archived_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
