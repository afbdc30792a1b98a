/** The JSON the board reads from the REST API (mirrors the ops' output schemas; the board never imports the server's code). */
// The core's vocabularies, copied because the board imports no server code; test/web/enums.test.ts keeps them equal.
export const CATEGORIES = ['backlog', 'todo', 'in_progress', 'blocked', 'done', 'canceled'] as const;
export type Category = (typeof CATEGORIES)[number];
export const KINDS = ['task', 'feature', 'bug', 'chore', 'spike', 'epic'] as const;
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export const PR_STATES = ['open', 'draft', 'merged', 'closed'] as const;
export const EVIDENCE_STATUSES = ['verified', 'reported'] as const;
export type Kind = (typeof KINDS)[number];
export type Priority = (typeof PRIORITIES)[number];

export interface Status {
  name: string;
  displayName: string;
  color: string;
  category: Category;
  position: number;
}

export interface Project {
  key: string;
  name: string;
  description: string;
  statuses: Status[];
  archived: boolean;
  taskCount: number;
}

export interface Progress {
  done: number;
  total: number;
}

/** Where a claim was made: the worktree, its branch and HEAD then. */
export interface ClaimWhere {
  worktree: string;
  branch: string | null;
  head: string | null;
}

export interface Claim {
  actor: string;
  expiresAt: string;
  /** Rises with every new claim of the task (full views only, like `where`). */
  generation?: number;
  where?: ClaimWhere;
}

/** What a completion showed: `verified` when the commit was found in the project's repository, else `reported`. */
export interface Evidence {
  commit?: string;
  prUrl?: string;
  test?: { command: string; exitCode: number };
  status: (typeof EVIDENCE_STATUSES)[number];
  at: string;
  actor: string;
}

/** The latest hand-on for whoever works the task next. */
export interface Checkpoint {
  summary: string;
  next?: string;
  head?: string;
  changedFiles?: string[];
  questions?: string[];
  at: string;
  actor: string;
}

export interface TaskSummary {
  id: string;
  project: string;
  title: string;
  status: string;
  statusCategory: Category;
  kind: Kind;
  priority: Priority;
  score: number;
  labels: string[];
  assignee: string | null;
  claim: Claim | null;
  parentId: string | null;
  position: number;
  version: number;
  blockedBy: string[];
  /** The blockedBy ids not yet finished, as the server last saw them. */
  openBlockers: string[];
  blocks: string[];
  children: string[];
  isReady: boolean;
  checklistProgress: Progress;
  createdAt: string;
  updatedAt: string;
}

export interface Links {
  branch?: string;
  worktree?: string;
  prUrl?: string;
  prNumber?: number;
  prState?: (typeof PR_STATES)[number];
  issue?: string;
}

export interface Task extends TaskSummary {
  description: string;
  checklist: Array<{ index: number; text: string; checked: boolean }>;
  comments: Array<{ id: string; author: string; kind: string; body: string; createdAt: string }>;
  links: Links;
  anchors: string[];
  /** Paths or globs it edits; a live claim reserves them. */
  touches: string[];
  evidence: Evidence | null;
  checkpoint: Checkpoint | null;
  closeReason: string | null;
  /** Where the task came from: a handoff's project, or a linked or imported source's record (castle:UUID). */
  origin: string | null;
  childProgress: Progress | null;
  completedAt: string | null;
  archivedAt: string | null;
  deletedAt: string | null;
}

export interface ActivityEvent {
  seq: number;
  at: string;
  actor: string;
  project: string | null;
  taskId: string | null;
  type: string;
  changes: Record<string, { before: unknown; after: unknown }>;
}

export interface TaskList {
  tasks: TaskSummary[];
  total: number;
  nextCursor: string | null;
}

export interface SearchResult {
  task: TaskSummary;
  matchedFields: string[];
  excerpt: string;
}

/** POST /paths/check: which of the asked paths another actor's live claim reserves, and which are free. */
export interface PathsCheck {
  held: Array<{ path: string; reserved: string; task: string; holder: string; expiresAt: string }>;
  free: string[];
}

export interface Filters {
  assignee: string;
  label: string;
  kind: string;
  priority: string;
}

export const NO_FILTERS: Filters = { assignee: '', label: '', kind: '', priority: '' };
