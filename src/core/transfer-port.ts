/**
 * What export and import need from the store beyond the row-level Tx: pages of whole tasks with
 * their relations and history in a few queries (so an export stays flat in memory and fast), the
 * few writes a lossless import must make that no service makes (events with their seq, a
 * project's sequence raised), and bulk writes of new tasks, many rows per statement. Engines
 * implement it next to Tx.
 */
import type { ChecklistItem, Comment } from './model/task.js';
import type { TaskRow } from './rows.js';

/** One activity event as stored: raw uids, so history survives a task's purge or a project's rename. */
export interface StoredEvent {
  seq: number;
  at: string;
  actor: string;
  via: string | null;
  projectUid: string | null;
  taskUid: string | null;
  type: string;
  /** The JSON text as stored; parsed only by those who need it. */
  changes: string;
}

/** A task with everything an export writes about it. */
export interface TaskDump {
  row: TaskRow;
  checklist: ChecklistItem[];
  comments: Comment[];
  /** Blocking edges, by blocker uid, sorted by (createdAt, blockerUid). */
  blockers: Array<{ blockerUid: string; blockerId: string; createdAt: string }>;
  events: StoredEvent[];
}

export interface DumpQuery {
  projectUid: string;
  /** Tasks with a larger per-project number than this, in number order. */
  afterSeq: number;
  limit: number;
  includeArchived: boolean;
  /** Only tasks with an event after this seq, and only those events. */
  sinceSeq?: number;
}

/** A task an import creates, with what it carries: its labels are the row's `labels` (sorted, unique). */
export interface NewTask {
  row: TaskRow;
  checklist: ChecklistItem[];
  comments: Comment[];
}

export interface TransferTx {
  /** The next page of a project's tasks (deleted ones included), with relations and history. */
  dumpTasks(q: DumpQuery): Promise<TaskDump[]>;
  /** A project's events that belong to no task still present (project changes, purged tasks), by seq. */
  projectEvents(projectUid: string, sinceSeq?: number): Promise<StoredEvent[]>;
  /** The project's next task number, as stored. */
  nextSeq(projectUid: string): Promise<number>;
  /** Raises the project's next task number to at least `nextSeq` (never lowers it). */
  raiseNextSeq(projectUid: string, nextSeq: number): Promise<void>;
  /** Events of one task, by seq (to skip those a merge already has). */
  taskEvents(taskUid: string): Promise<StoredEvent[]>;
  /** A project's events of one type, by seq (imports find the tasks they made from their task.imported events). */
  eventsOfType(projectUid: string, type: string): Promise<StoredEvent[]>;
  /**
   * Inserts new tasks with their labels, checklist items and comments, many rows per statement, as
   * insertTask and addComment would one by one (the relation triggers still run). Parents must be
   * earlier in the list or already stored. Their search rows are not written: see indexNewTasks.
   */
  insertTasks(tasks: NewTask[]): Promise<void>;
  /** Appends events under their own seqs (a restore into an empty log, or numbers reserveEventSeqs gave), many rows per statement. */
  insertEventsWithSeq(events: StoredEvent[]): Promise<void>;
  /**
   * Reserves `count` consecutive event numbers after the log's end and returns the first, for this
   * transaction's insertEventsWithSeq: an import numbers its appended events once, at its end, so on
   * PostgreSQL it holds the feed counter's lock (which every writer needs) only from then to commit.
   */
  reserveEventSeqs(count: number): Promise<number>;
  /** Adds blocking edges (task blocked by blocker) that may already exist, many rows per statement; the relation triggers run. */
  addDependencies(edges: Array<{ taskUid: string; blockerUid: string; at: string }>): Promise<void>;
  /** Writes the search rows of tasks that have none yet (insertTasks' tasks, once their text is stored), in one pass. */
  indexNewTasks(uids: string[]): Promise<void>;
  /** Removes one comment by id (a merge replacing a comment that changed). */
  deleteComment(id: string): Promise<void>;
}
