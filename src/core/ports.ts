/** What the core needs from outside: a transactional store of rows, and a clock. Engines implement these. */
import type { ActivityEvent } from './model/activity.js';
import type { ChecklistItem, Comment, CommentKind, Kind, Priority } from './model/task.js';
import type { Category, Status } from './model/workflow.js';
import type { IdempotencyTx } from './idempotency-port.js';
import type { LinkTx } from './link-port.js';
import type { TransferTx } from './transfer-port.js';
import type { ProjectRow, TaskRow } from './rows.js';

export type { ProjectRow, TaskRow } from './rows.js';

/** What lists read of a task: everything a summary shows, none of the long or detail-only fields. */
export type TaskSummaryRow = Omit<TaskRow, 'description' | 'links' | 'anchors' | 'closeReason' | 'origin' | 'documentPath' | 'completedAt' | DetailOnly>;
/** Coordination fields read with the full row only. */
type DetailOnly = 'claimGeneration' | 'claimWhere' | 'touches' | 'evidence' | 'checkpoint';

/** Fields a service may change on a task; the store bumps nothing by itself. */
export type TaskPatch = Partial<
  Omit<
    TaskRow,
    'uid' | 'projectUid' | 'projectKey' | 'seq' | 'createdAt' | 'parentId' | 'openBlockers' | 'openBlockerIds' | 'checklistDone' | 'checklistTotal' | 'labels' | 'blockedBy' | 'blocks' | 'children'
  >
>;
export type ProjectPatch = Partial<Omit<ProjectRow, 'uid' | 'key' | 'createdAt'>>;

export interface TaskFilter {
  projectUids?: string[];
  statuses?: string[];
  categories?: Category[];
  kinds?: Kind[];
  priorities?: Priority[];
  labelsAny?: string[];
  labelsAll?: string[];
  assignee?: string | null;
  substatuses?: string[];
  /** Exact slug (unique within a project). */
  slug?: string;
  parentUid?: string;
  updatedSince?: string;
  includeDone?: boolean;
  includeArchived?: boolean;
  includeDeleted?: boolean;
  onlyDeleted?: boolean;
  /** Only tasks that are ready per DESIGN §2 at `now` for `actor`. */
  ready?: { now: string; actor?: string; includeBacklog?: boolean };
}

export const TASK_SORTS = ['ready', 'created', 'updated', 'priority', 'position', 'id'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/**
 * Where a list page starts: the sort key of the previous page's last row (see sortKeyOf in
 * services/cursor.ts); the page holds the rows strictly after it in the sort order.
 */
export type ListAfter = ReadonlyArray<string | number>;

/**
 * Where a search page starts. `seen`: the store numbers of the hits already shown; the page is the
 * best-ranked matches not among them, so ranks that shift between pages (bm25 moves with every write)
 * neither repeat nor skip a hit. `rank`/`num`: strictly after that (rank, number), for long walks.
 */
export type SearchAfter = { seen: number[] } | { rank: number; num: number };

export interface Page<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
}

export interface SearchHit {
  /** The hit's summary row, read with the page (no second lookup by id). */
  task: TaskSummaryRow;
  /** The store's number for the task (stable for its life): what search cursors remember. */
  num: number;
  rank: number;
  matchedFields: string[];
  excerpt: string;
}

export interface NewEvent {
  at: string;
  actor: string;
  projectUid: string | null;
  taskUid: string | null;
  type: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  /** Who acted on the actor's behalf (an admin token acting as an agent); absent when the actor acted itself. */
  via?: string | null;
}

/** An API token as stored: never the secret, only its sha256. */
export interface TokenRow {
  id: string;
  name: string;
  scope: 'read' | 'write' | 'admin' | 'metrics';
  hash: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The uids of the projects the token reaches (core/limited-store.ts); null: every project. */
  projects: string[] | null;
}

export interface BoardRow {
  status: string;
  priority: Priority;
  assignee: string | null;
  count: number;
  checklistDone: number;
  checklistTotal: number;
}

/** Counted by the engine over every task that matches a filter (open work for the board and the ready queue's hint). */
export interface OpenWorkCounts {
  /** Matching tasks per category and assignee, and how many of them wait on open blockers. */
  groups: Array<{ category: Category; assignee: string | null; count: number; waiting: number }>;
  /** The open blockers holding up the most waiting matches (display ids), most first. */
  topBlockers: Array<{ id: string; count: number }>;
  /** Uids of the first matches in ready order that are blocked: in a blocked-category status, or waiting on open blockers in todo or backlog. */
  blocked: string[];
}

/** A live claim's reservation: the paths its task touches. */
export interface LiveReservation {
  uid: string;
  /** Display id. */
  id: string;
  holder: string;
  expiresAt: string;
  touches: string[];
}

/** A lease whose end is due to be announced. */
export interface DueLease {
  uid: string;
  projectUid: string;
  holder: string;
  expiresAt: string;
  generation: number;
}

/** Which activity events to read: after a seq, of one task, of one project or of several (`projectUids`, which leaves out events of no project). */
export interface EventQuery {
  afterSeq?: number;
  taskUid?: string;
  projectUid?: string;
  projectUids?: string[];
  limit: number;
  desc?: boolean;
}

/** One transaction's view of the store. All methods run inside the enclosing read or write transaction. */
export interface Tx {
  // projects
  listProjects(includeArchived: boolean): Promise<ProjectRow[]>;
  getProjectByKey(key: string): Promise<ProjectRow | undefined>;
  getProjectByUid(uid: string): Promise<ProjectRow | undefined>;
  insertProject(row: ProjectRow, statuses: Status[]): Promise<void>;
  updateProject(uid: string, patch: ProjectPatch): Promise<void>;
  getStatuses(projectUid: string): Promise<Status[]>;
  replaceStatuses(projectUid: string, statuses: Status[]): Promise<void>;
  /** Allocates the next per-project sequence number; never reused. */
  allocateSeq(projectUid: string): Promise<number>;
  taskCounts(projectUids: string[]): Promise<Map<string, number>>;

  // tasks
  getTask(uid: string): Promise<TaskRow | undefined>;
  getTaskBySeq(projectUid: string, seq: number): Promise<TaskRow | undefined>;
  /** A task by its project's exact key and its number, in one read (resolveTask falls back to aliases and suggestions). */
  getTaskByKey(projectKey: string, seq: number): Promise<TaskRow | undefined>;
  getTasks(uids: string[]): Promise<TaskRow[]>;
  /** The detail fields of tasks by uid, without the rest of the row (for lists that show them per row); the description only when asked. */
  taskDetails(uids: string[], withDescription: boolean): Promise<Array<Pick<TaskRow, 'uid' | 'description' | 'links' | 'completedAt' | 'closeReason' | 'origin'>>>;
  /** Summary rows only (what lists show), in the order given. */
  getTaskSummaries(uids: string[]): Promise<TaskSummaryRow[]>;
  /** Inserts a new task with its labels (row.labels) and checklist (its counts are written from `checklist`). */
  insertTask(row: TaskRow, checklist?: ChecklistItem[]): Promise<void>;
  updateTask(uid: string, patch: TaskPatch): Promise<void>;
  /** Conditional claim: succeeds only if unclaimed, claimed by `actor`, or the lease expired; `patch` is written in the same UPDATE. */
  /**
   * Claims in one conditional UPDATE: succeeds when the task is unclaimed, the actor's own, its lease
   * is over, or (a takeover) its claim is still generation `takeover`. False when another claim won.
   */
  tryClaim(uid: string, actor: string, now: string, expiresAt: string, patch: TaskPatch, takeover?: number): Promise<boolean>;
  /** Leases ended by `now` whose end is not yet announced, soonest first. */
  dueLeases(now: string, limit: number): Promise<DueLease[]>;
  /** Marks the lease's end announced; false when it changed since it was read (renewed, reclaimed) or another process did first. */
  markLeaseLapsed(lease: DueLease): Promise<boolean>;
  /** The soonest end among leases not yet announced; null when there is none. */
  nextLeaseEnd(): Promise<string | null>;
  /** Live claims (ending after `now`) whose tasks touch paths. */
  liveReservations(now: string): Promise<LiveReservation[]>;
  purgeTask(uid: string): Promise<void>;
  /**
   * A page of `limit` rows after `after` (keyset; from the start when undefined); `more` says whether
   * rows follow. `total` counts every match; pass `{ count: false }` when it is not needed (it is then a lower bound).
   */
  listTasks(filter: TaskFilter, sort: TaskSort, limit: number, after?: ListAfter, opts?: { count?: boolean }): Promise<{ rows: TaskSummaryRow[]; total: number; more: boolean }>;
  lanePositions(projectUid: string, status: string, excludeUid: string): Promise<number[]>;
  maxLanePosition(projectUid: string, status: string): Promise<number>;
  renumberLane(projectUid: string, status: string): Promise<void>;
  /** Recomputes the stored count of open blockers for these tasks (after edges or blocker states change). */
  refreshOpenBlockers(uids: string[]): Promise<void>;
  /** Moves a status's tasks to `category`; entering done stamps completedAt (`now`) where missing, leaving it clears it. */
  setCategoryForStatus(projectUid: string, status: string, category: Category, now: string): Promise<void>;
  countTasksInStatus(projectUid: string, status: string): Promise<number>;
  recentTaskTitles(projectUid: string | null, limit: number): Promise<Array<{ id: string; title: string }>>;

  // graph
  blockerUids(uid: string): Promise<string[]>;
  dependentUids(uid: string): Promise<string[]>;
  childUids(uid: string): Promise<string[]>;
  /** The task's parent, whatever project it is in (hierarchy walks must see the whole tree). */
  parentUidOf(uid: string): Promise<string | null>;
  addDependency(taskUid: string, blockerUid: string, at: string): Promise<boolean>;
  removeDependency(taskUid: string, blockerUid: string): Promise<boolean>;

  // labels, checklist, comments
  setLabels(uid: string, labels: string[]): Promise<void>;
  labelCounts(projectUids: string[] | null): Promise<Array<{ label: string; count: number }>>;
  getChecklist(uid: string): Promise<ChecklistItem[]>;
  replaceChecklist(uid: string, items: ChecklistItem[]): Promise<void>;
  getComments(uid: string): Promise<Comment[]>;
  addComment(uid: string, comment: { id: string; author: string; kind: CommentKind; body: string; createdAt: string }): Promise<void>;

  // search (engine-specific index)
  /** Rewrites a task's search entry; `isNew` when the task has none yet (just created). */
  reindexTask(uid: string, isNew?: boolean): Promise<void>;
  /**
   * The best-ranked `limit` matches after `after`. `consumed`: the numbers and ranks of the index rows the
   * page used, hits plus any skipped (an index row whose task is gone), in rank order; `more` whether matches follow.
   */
  search(query: string, filter: TaskFilter, limit: number, after?: SearchAfter): Promise<{ hits: SearchHit[]; total: number; consumed: Array<{ num: number; rank: number }>; more: boolean }>;

  // board
  boardRows(projectUids: string[], includeArchived: boolean): Promise<BoardRow[]>;
  /** Aggregates over every task matching `filter`, without loading rows; at most `topBlockers` blockers and `blocked` uids. */
  openWorkCounts(filter: TaskFilter, opts: { topBlockers: number; blocked: number }): Promise<OpenWorkCounts>;

  // activity
  appendEvent(e: NewEvent): Promise<number>;
  events(q: EventQuery): Promise<ActivityEvent[]>;
  lastSeq(): Promise<number>;
  /** Seq and type of the events after `afterSeq`, oldest first: what a change feed needs to decide whether to read them. */
  eventHeads(afterSeq: number, limit: number): Promise<Array<{ seq: number; type: string }>>;

  // API tokens (cairn serve)
  insertToken(row: TokenRow): Promise<void>;
  listTokens(includeRevoked: boolean): Promise<TokenRow[]>;
  /** Marks a live token revoked; false when none matched. */
  revokeToken(id: string, at: string): Promise<boolean>;
  touchToken(id: string, at: string): Promise<void>;

  /**
   * Serialises the writers of `resource` from here to the end of this transaction, so a check that
   * spans many rows (a cycle in the graph, a key or alias in use) still holds when the write lands.
   * Engines that admit one writer at a time need nothing.
   */
  exclusive(resource: 'graph' | 'projects' | 'tokens' | 'reservations'): Promise<void>;

  /** Bulk reads and raw writes for export and import (core/transfer-port.ts). */
  readonly transfer: TransferTx;

  /** Idempotency keys of writes (core/idempotency-port.ts). */
  readonly idempotency: IdempotencyTx;

  /** Linked sources and what each remembers of its records (core/link-port.ts). */
  readonly links: LinkTx;
}

export interface Store {
  /** Runs `fn` in a read snapshot. On a workspace with no database yet, reads see an empty store. */
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `fn` in one write transaction (SQLite: BEGIN IMMEDIATE); creates the database on first use. */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Cheap change probe for live views: differs after any commit by any process. */
  changeToken(): Promise<string>;
  /**
   * Cheaper to keep than changeToken for what depends on projects only (the MCP default project):
   * differs after this process changes a project or workflow and after any commit by another.
   */
  projectsToken(): Promise<string>;
  /**
   * Calls `listener` soon after any process commits (engines that can notify: PostgreSQL's
   * LISTEN); returns the unsubscribe. Live views still poll changeToken, which this only hastens.
   */
  onCommit?(listener: () => void): () => void;
  /**
   * The workspace's links were added or removed by this process: a store that syncs them reads them
   * again (links/linked-store.ts). False (or absent) when the store keeps no links.
   */
  forgetLinks?(): boolean;
  /** What health checks and `cairn db status` report: the engine, its schema, its connections. */
  status?(): Promise<StoreStatus>;
  /** PostgreSQL: tells `listener` how long (seconds) each database call waited for a pool connection. */
  observePoolWaits?(listener: (seconds: number) => void): () => void;
  close(): Promise<void>;
  readonly location: string;
}

export interface StoreStatus {
  engine: 'sqlite' | 'postgres';
  /** The schema version the database holds (0: not created yet), and the one this Cairn writes. */
  schemaVersion: number;
  latestSchemaVersion: number;
  /** PostgreSQL: this process's connections (in use = total − idle) and callers waiting for one. */
  pool?: { max: number; total: number; idle: number; waiting: number };
  /** SQLite: transactions of this process that found another process's write holding the lock and waited. */
  lockWaits?: number;
  /** PostgreSQL: the LISTEN connection that hears other replicas' commits is up (undefined: none opened yet). */
  listening?: boolean;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
