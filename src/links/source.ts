/**
 * What the link engine needs from each kind of source (Castle's database, a DevPlanner workspace,
 * a Backlog.md folder, a Task Master tasks.json, a Beads JSONL file): list its files with their
 * stamps, read records from some of them in Cairn's terms, say which fields it holds, and write
 * changes back in its own format. One file per kind under sources/.
 */
import type { LinkItem, LinkKind } from '../core/link-port.js';
import type { ChecklistItem, Kind, Links, Priority } from '../core/model/task.js';
import type { Category, Status } from '../core/model/workflow.js';
import type { ProjectRow, TaskRow } from '../core/ports.js';
import type { IncomingProject, IncomingTask } from '../core/services/import/model.js';

/** A record as the source holds it, in Cairn's terms (what an import reads), and the file it lives in. */
export interface SourceTask extends IncomingTask {
  file: string | null;
}

export interface SourceRead {
  projects: IncomingProject[];
  tasks: SourceTask[];
  /**
   * Lanes whose order may have moved: a project's lane, its records first to last (DevPlanner's
   * _order.json). `listed`: the lane's order file itself changed (else only a card of the lane did).
   */
  orders: Array<{ projectRef: string; status: string; sourceIds: string[]; listed: boolean }>;
  /** Files that could not be read, each with why: their records keep their last synced state. */
  warnings: string[];
  /** Files the read covered: a record that lived in one of them and is not among `tasks` is gone. */
  covered: ReadonlySet<string>;
}

/** The fields of a record a source can hold, in one shape for its records and Cairn's tasks. */
export interface Held {
  title: string;
  description: string;
  status: string;
  kind: Kind;
  priority: Priority;
  labels: string[];
  assignee: string | null;
  substatus: string | null;
  slug: string | null;
  links: Links;
  closeReason: string | null;
  checklist: Array<Pick<ChecklistItem, 'text' | 'checked'>>;
  /** Source ids; records of the same link only. */
  parent: string | null;
  blockedBy: string[];
  /** The status's category, for a Cairn task (a source with other status names maps by it); never hashed. */
  category?: Category;
}

export type HeldField = keyof Held;

/** A Cairn task as a write-back sees it: the row, its checklist, and its parent and blockers by source id. */
export interface LinkedTask {
  row: TaskRow;
  checklist: ChecklistItem[];
  held: Held;
  /** The record's source id, when it has one already. */
  item: LinkItem | undefined;
  /** The source's name for the task's project (link_projects.ref). */
  projectRef: string;
  /** The held fields this write changed (from its events), for messages. */
  changed: string[];
  /** Those fields' values before this write, in Cairn's terms. */
  before: Partial<Held>;
}

export interface LinkedProject {
  row: ProjectRow;
  statuses: Status[];
  /** The source's name for it; undefined for a project the write-back is to create. */
  ref: string | undefined;
}

export interface WriteBatch {
  upserts: LinkedTask[];
  deletes: Array<{ item: LinkItem; projectRef: string }>;
  /** Lanes to write in this order (DevPlanner): the tasks of each, first to last (source ids, or task uids of records this batch creates). */
  lanes: Array<{ projectRef: string; status: string; order: Array<{ taskUid: string; sourceId: string | undefined }> }>;
  projects: LinkedProject[];
  /** Each file's stamp as last read: a file that moved since is not overwritten (SourceMoved). */
  stamps: ReadonlyMap<string, string>;
  now: string;
}

export interface WriteResult {
  /** Records written: their source ids and files (new records get theirs here). */
  items: Array<{ taskUid: string; sourceId: string; file: string | null }>;
  /** Source ids of records removed. */
  removed: string[];
  /** Files written or removed (undefined), with their new stamps. */
  files: Map<string, string | undefined>;
  /** Projects the source now names: a project it created gets its ref here. */
  projects: Array<{ projectUid: string; ref: string }>;
  /** Identity the source gave a task (a new card's slug), written to the task without a new version. */
  identities: Array<{ taskUid: string; slug: string }>;
}

export interface LinkSource {
  readonly kind: LinkKind;
  /** Absolute path: the file (castle.db, tasks.json, issues.jsonl) or the folder. */
  readonly path: string;
  /** A folder of files (watched in servers), not one file (a stat per check). */
  readonly isFolder: boolean;
  /** The repository the source lives in (the folder holding .taskmaster/, backlog/, .beads/): a new project is rooted there when no project is. */
  readonly repository?: string;
  /** What the source is, for messages: "Castle's database /home/me/castle.db". */
  readonly label: string;
  /** Why the source is not written (Castle's app overwrites its file), when a read-only link refuses a write. */
  readonly readOnlyReason?: string;
  /** Whether projects of the source's kind made in the workspace join it (a DevPlanner workspace gets a folder per project). */
  readonly holdsProjects?: boolean;
  /** Project fields the source holds (as project events name them): a change to one is written back. */
  readonly projectFields?: readonly string[];
  /** Whether the owner rewrites the whole source from its own copy (Castle's app): writes are then watched for being lost. */
  readonly overwritesWhole?: boolean;
  /** Whether the source orders lanes (DevPlanner's _order.json): writes then say the order of each lane they touch. */
  readonly ordersLanes?: boolean;
  /** Fields the source holds; the rest of a task (claims, comments, history) is Cairn's own. */
  readonly fields: readonly HeldField[];
  /** A held value as the source would store it and read it back (DevPlanner has no "urgent": high). */
  view(held: Held): Held;
  /** Every file the source is made of, by path relative to `path` ("" for a single-file source), with its stamp. */
  scan(): Map<string, string>;
  /** Whether a relative path is one of the source's files. */
  tracks(rel: string): boolean;
  /** The folders to watch for changes to these files (absolute); none for a single file (a stat is cheap). */
  folders(files: Iterable<string>): string[];
  /** Reads the records of these files (relative paths; every file when undefined). */
  read(files?: readonly string[]): Promise<SourceRead>;
  /** Writes the changes back; absent for a source Cairn cannot write. */
  write?(batch: WriteBatch): WriteResult;
}

/** Thrown by a write-back that found a file changed since it was read: the engine syncs and tries again. */
export class SourceMoved extends Error {
  constructor(readonly file: string) {
    super(`${file} changed while Cairn was writing it`);
  }
}

/** A source whose owner is writing it (a torn read): retried once, then reported as a warning. */
export class SourceBusy extends Error {}
