/** Kysely's view of the tables (snake_case, as stored). Only store/ sees these names. */
import type { Generated } from 'kysely';

export interface ProjectsTable {
  uid: string;
  key: string;
  name: string;
  description: string;
  root: string | null;
  aliases: string; // JSON array
  require_evidence: Generated<number>;
  next_seq: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StatusesTable {
  project_uid: string;
  name: string;
  display_name: string;
  color: string;
  category: string;
  position: number;
}

export interface TasksTable {
  num: Generated<number>; // rowid alias, joins the search index
  uid: string;
  project_uid: string;
  seq: number;
  title: string;
  description: string;
  status: string;
  category: string;
  kind: string;
  priority: number; // rank: 0 none … 4 urgent
  score: number;
  position: number;
  assignee: string | null;
  claimed_by: string | null;
  claim_expires_at: string | null;
  claim_generation: Generated<number>;
  claim_lapsed: Generated<number>;
  claim_where: Generated<string | null>; // JSON ClaimWhere
  touches: Generated<string>; // JSON array
  evidence: Generated<string | null>; // JSON Evidence
  checkpoint: Generated<string | null>; // JSON Checkpoint
  parent_uid: string | null;
  links: string; // JSON object
  anchors: string; // JSON array
  close_reason: string | null;
  origin: string | null;
  document_path: string | null;
  open_blockers: Generated<number>;
  checklist_done: Generated<number>;
  checklist_total: Generated<number>;
  version: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  archived_at: string | null;
  deleted_at: string | null;
  // Kept by triggers (migration 6): the parent's display id and JSON arrays of relations.
  parent_id: Generated<string | null>;
  rel_labels: Generated<string>;
  rel_blocked_by: Generated<string>;
  rel_blocks: Generated<string>;
  rel_children: Generated<string>;
  // Migration 16: display ids of the blockers neither done, canceled nor deleted (kept with open_blockers).
  rel_open_blocked_by: Generated<string>;
  // Changes with every UPDATE of the row (migration 11): what a cached summary row is checked against.
  rev: Generated<number>;
  // Migration 14: a sub-state within the lane, and a name unique within the project (tasks_slug).
  substatus: string | null;
  slug: string | null;
}

export interface TaskLabelsTable {
  task_uid: string;
  label: string;
}

/** One entry per label of each open task, in ready order (migration 10; kept by triggers). */
export interface LabelOrderTable {
  project_uid: string;
  label: string;
  priority: number;
  score: number;
  position: number;
  created_at: string;
  uid: string;
  num: number;
}

export interface DependenciesTable {
  task_uid: string;
  blocker_uid: string;
  created_at: string;
}

export interface ChecklistItemsTable {
  task_uid: string;
  idx: number;
  text: string;
  checked: number;
}

export interface CommentsTable {
  id: string;
  task_uid: string;
  author: string;
  kind: string;
  body: string;
  created_at: string;
}

export interface EventsTable {
  seq: Generated<number>;
  at: string;
  actor: string;
  project_uid: string | null;
  task_uid: string | null;
  type: string;
  changes: string; // JSON
  /** Who acted on the actor's behalf (an admin token, "token:ci"); null when the actor acted itself. */
  via: string | null;
}

export interface ApiTokensTable {
  id: string;
  name: string;
  scope: string; // read | write | admin
  hash: string; // sha256 hex of the secret
  prefix: string; // first characters of the secret, for recognising it in lists
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  projects: string | null; // JSON array of project uids the token is limited to; NULL: every project
}

/** A write's idempotency key (migration 17): a repeat of the write with the same key changes nothing. */
export interface IdempotencyKeysTable {
  key: string;
  op: string;
  task_uid: string | null;
  created_at: string;
  /** The request's fingerprint (migration 24 / 7): the same key with another body is refused. */
  fingerprint: string | null;
}

/** A linked source (migration 21): a store another program owns, synced in place (docs/links.md). */
export interface LinksTable {
  id: string;
  kind: string;
  path: string;
  writable: number;
  state: string; // JSON: the link's warnings and lost writes (core/link-port.ts LinkState)
  created_at: string;
}

export interface LinkProjectsTable {
  project_uid: string;
  link_id: string;
  ref: string; // the source's name for the project (a folder slug, a Castle project path)
}

export interface LinkItemsTable {
  link_id: string;
  source_id: string;
  task_uid: string;
  file: string | null;
  hash: string;
}

export interface LinkFilesTable {
  link_id: string;
  file: string;
  stamp: string;
}

export interface DB {
  projects: ProjectsTable;
  statuses: StatusesTable;
  tasks: TasksTable;
  task_labels: TaskLabelsTable;
  label_order: LabelOrderTable;
  dependencies: DependenciesTable;
  checklist_items: ChecklistItemsTable;
  comments: CommentsTable;
  events: EventsTable;
  api_tokens: ApiTokensTable;
  idempotency_keys: IdempotencyKeysTable;
  links: LinksTable;
  link_projects: LinkProjectsTable;
  link_items: LinkItemsTable;
  link_files: LinkFilesTable;
}
