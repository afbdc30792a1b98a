/**
 * What the store keeps for linked sources (docs/links.md): the links, which projects each feeds,
 * and per record of the source the task it is, with a hash of the fields the source holds as last
 * synced. Engines implement this beside the Tx port (store/queries/links.ts).
 */

export const LINK_KINDS = ['castle', 'devplanner', 'backlog', 'taskmaster', 'beads'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** A write the source's owner erased (Castle's app saving its whole file over it). */
export interface LostWrite {
  task: string;
  at: string;
  fields: string[];
}

/**
 * A write Cairn made to a source whose owner rewrites it whole (Castle): kept until the record reads
 * back as written or is found reverted, in which case the write was lost and is reported.
 */
export interface PushedWrite {
  sourceId: string;
  task: string;
  at: string;
  /** Each field written: Cairn's value and the value it replaced, in the source's terms (JSON). */
  fields: Record<string, { ours: string; theirs: string }>;
}

/** What a link reports besides its records: problems met reading the source, and lost writes. */
export interface LinkState {
  /** Files or records the last sync could not read, each with why; empty when all was read. */
  warnings: string[];
  /** Writes the owner's program erased since they were made (the latest 20). */
  lost: LostWrite[];
  /** When the source was last read in full or in part. */
  syncedAt?: string;
  /** The project every record goes to (`cairn link --project KEY`), for a source of one project. */
  project?: string;
  /** Writes not yet read back from a source its owner rewrites whole (the latest 50). */
  pushed?: PushedWrite[];
}

export interface LinkRow {
  id: string;
  kind: LinkKind;
  /** The source's absolute, real path: a file (castle.db, tasks.json, issues.jsonl) or a folder. */
  path: string;
  /** Whether Cairn writes back to the source (false: the source's fields are refused, Cairn's own data is kept). */
  writable: boolean;
  state: LinkState;
  createdAt: string;
}

export interface LinkItem {
  sourceId: string;
  taskUid: string;
  /** The file holding the record, relative to the link's path (folder sources); null for single-file sources. */
  file: string | null;
  /** Hash of the record's source-held fields as last synced (links/fingerprint.ts). */
  hash: string;
}

/** An event as the link engine reads it: by internal ids, with its field changes. */
export interface RawEvent {
  seq: number;
  projectUid: string | null;
  taskUid: string | null;
  type: string;
  changes: Record<string, { before: unknown; after: unknown }>;
}

export interface LinkTx {
  /** The events after `seq`, oldest first: what a write (or a sync) has just changed. */
  eventsSince(seq: number): Promise<RawEvent[]>;
  list(): Promise<LinkRow[]>;
  insert(row: LinkRow): Promise<void>;
  update(id: string, patch: { writable?: boolean; state?: LinkState }): Promise<void>;
  /** Removes the link and everything it remembers; its projects and tasks stay as they are. */
  remove(id: string): Promise<void>;
  /** The projects a link feeds, each with the source's name for it. */
  projects(linkId: string): Promise<Array<{ projectUid: string; ref: string }>>;
  setProject(linkId: string, projectUid: string, ref: string): Promise<void>;
  /** A link's records; with `only`, just those with one of these source ids or in one of these files. */
  items(linkId: string, only?: { sourceIds: string[]; files: string[] }): Promise<LinkItem[]>;
  /** Inserts or replaces records by source id. */
  putItems(linkId: string, items: LinkItem[]): Promise<void>;
  removeItems(linkId: string, sourceIds: string[]): Promise<void>;
  /** The records of these tasks, in any link. */
  itemsOfTasks(taskUids: string[]): Promise<Array<LinkItem & { linkId: string }>>;
  /** Whether the task is a record of a link Cairn does not write (its source-held fields must stay as the source has them). */
  inReadOnlyLink(taskUid: string): Promise<boolean>;
  /** Tasks whose record in some link has this source id (a Castle UUID, a Backlog task-12). */
  tasksBySourceId(sourceId: string): Promise<string[]>;
  /** Each file's stamp as last read (links/stamps.ts). */
  files(linkId: string): Promise<Map<string, string>>;
  putFiles(linkId: string, files: ReadonlyMap<string, string>): Promise<void>;
  removeFiles(linkId: string, files: string[]): Promise<void>;
}
