/** Row mapping between stored snake_case columns and the core's row types. */
import { sql, type Kysely, type Selectable } from 'kysely';
import { engineSql } from './engine-sql.js';
import type { ProjectRow, TaskRow, TaskSummaryRow } from '../../core/ports.js';
import type { Category } from '../../core/model/workflow.js';
import { priorityFromRank, priorityRank, type Kind, type TaskSummary } from '../../core/model/task.js';
import type { ProjectsTable, TasksTable } from '../schema.js';

export type TaskRecord = Selectable<TasksTable> & { project_key: string };

/** `rev + 1`: every UPDATE of a task row moves its revision in the same write (migration 11, summary-cache.ts). */
export const BUMP = sql<number>`rev + 1`;

/** The columns a summary needs (lists read only these; see TaskSummaryRow). */
export const SUMMARY_COLUMNS = [
  'uid',
  'project_uid',
  'seq',
  'title',
  'status',
  'category',
  'kind',
  'priority',
  'score',
  'position',
  'assignee',
  'claimed_by',
  'claim_expires_at',
  'parent_uid',
  'parent_id',
  'open_blockers',
  'checklist_done',
  'checklist_total',
  'rel_labels',
  'rel_blocked_by',
  'rel_blocks',
  'rel_children',
  'version',
  'created_at',
  'updated_at',
  'archived_at',
  'deleted_at',
  'substatus',
  'slug',
  'rel_open_blocked_by',
] as const;
export type SummaryRecord = Pick<TaskRecord, (typeof SUMMARY_COLUMNS)[number] | 'project_key'>;

/**
 * A stored relation array (JSON text of strings). Most are empty; without a backslash no element
 * holds an escaped quote, so `","` can only be a separator and a split gives what JSON.parse would,
 * at a fraction of its cost across a 50-row page.
 */
const list = (json: string): string[] => {
  if (json === '[]') return [];
  return json.includes('\\') ? (JSON.parse(json) as string[]) : json.slice(2, -2).split('","');
};

/**
 * A summary row packed into one JSON array (SUMMARY_COLUMNS, then the project key) by the engine.
 * Lists read 50 rows of 28 values, and the binding's cost is per value handed to JavaScript: one
 * string per row parsed by JSON.parse costs less than 28 separate values (docs/benchmarks.md). The
 * relation arrays stay JSON text inside it (nested json() costs SQLite more than the parse saves).
 */
export const packedSummary = (db: Kysely<any>) => engineSql(db).jsonArray([...SUMMARY_COLUMNS.map((c) => sql.ref(`tasks.${c}`)), sql.ref('p.key')]);

type Packed = [
  uid: string,
  projectUid: string,
  seq: number,
  title: string,
  status: string,
  category: Category,
  kind: Kind,
  priority: number,
  score: number,
  position: number,
  assignee: string | null,
  claimedBy: string | null,
  claimExpiresAt: string | null,
  parentUid: string | null,
  parentId: string | null,
  openBlockers: number,
  checklistDone: number,
  checklistTotal: number,
  labels: string,
  blockedBy: string,
  blocks: string,
  children: string,
  version: number,
  createdAt: string,
  updatedAt: string,
  archivedAt: string | null,
  deletedAt: string | null,
  substatus: string | null,
  slug: string | null,
  openBlockedBy: string,
  projectKey: string,
];

/** The summary row from packedSummary's text. */
export function unpackSummary(json: string): TaskSummaryRow {
  const v = JSON.parse(json) as Packed;
  return {
    uid: v[0],
    projectUid: v[1],
    projectKey: v[30],
    seq: v[2],
    title: v[3],
    status: v[4],
    category: v[5],
    kind: v[6],
    priority: priorityFromRank(v[7]),
    score: v[8],
    position: v[9],
    assignee: v[10],
    claimedBy: v[11],
    claimExpiresAt: v[12],
    parentUid: v[13],
    parentId: v[14],
    openBlockers: v[15],
    checklistDone: v[16],
    checklistTotal: v[17],
    labels: list(v[18]),
    blockedBy: list(v[19]),
    openBlockerIds: list(v[29]),
    blocks: list(v[20]),
    children: list(v[21]),
    version: v[22],
    createdAt: v[23],
    updatedAt: v[24],
    archivedAt: v[25],
    deletedAt: v[26],
    substatus: v[27],
    slug: v[28],
  };
}

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
    openBlockerIds: list(r.rel_open_blocked_by),
    blocks: list(r.rel_blocks),
    children: list(r.rel_children),
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    archivedAt: r.archived_at,
    deletedAt: r.deleted_at,
    substatus: r.substatus,
    slug: r.slug,
  };
}

/**
 * The full row: the summary plus the long and detail-only fields. Added with Object.assign, not
 * `{ ...summary, more }`: V8 gives each object spread-and-extended that way a hidden class of its
 * own, kept in old space, which pins the object's strings through every young-generation GC until a
 * full one: slow scavenges in a get_task loop (docs/decisions.md).
 */
export function toTaskRow(r: TaskRecord): TaskRow {
  return Object.assign(toSummaryRow(r), {
    description: r.description,
    links: JSON.parse(r.links),
    anchors: JSON.parse(r.anchors),
    closeReason: r.close_reason,
    origin: r.origin,
    documentPath: r.document_path,
    completedAt: r.completed_at,
    claimGeneration: r.claim_generation,
    claimWhere: r.claim_where === null ? null : JSON.parse(r.claim_where),
    touches: JSON.parse(r.touches),
    evidence: r.evidence === null ? null : JSON.parse(r.evidence),
    checkpoint: r.checkpoint === null ? null : JSON.parse(r.checkpoint),
  });
}

const COLUMN: Record<string, string> = {
  projectUid: 'project_uid',
  parentUid: 'parent_uid',
  claimedBy: 'claimed_by',
  claimExpiresAt: 'claim_expires_at',
  claimGeneration: 'claim_generation',
  claimWhere: 'claim_where',
  closeReason: 'close_reason',
  documentPath: 'document_path',
  updatedAt: 'updated_at',
  completedAt: 'completed_at',
  archivedAt: 'archived_at',
  deletedAt: 'deleted_at',
  createdAt: 'created_at',
};

/** Derived fields a patch may carry that are not stored columns. */
const DERIVED = new Set(['parentId', 'labels', 'blockedBy', 'blocks', 'children', 'openBlockers', 'openBlockerIds', 'checklistDone', 'checklistTotal']);

/** Converts a camelCase patch to stored columns, encoding JSON and priority ranks. */
export function toColumns(patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || DERIVED.has(k)) continue;
    if (k === 'priority') out.priority = priorityRank(v as TaskSummary['priority']);
    else if (k === 'links' || k === 'anchors' || k === 'aliases' || k === 'touches') out[k] = JSON.stringify(v);
    else if (k === 'requireEvidence') out.require_evidence = v ? 1 : 0;
    else if (k === 'claimWhere' || k === 'evidence' || k === 'checkpoint') out[COLUMN[k] ?? k] = v === null ? null : JSON.stringify(v);
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
    requireEvidence: r.require_evidence === 1,
    archivedAt: r.archived_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
