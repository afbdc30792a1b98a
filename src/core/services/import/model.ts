/**
 * What every source reader produces for the import engine (projects and tasks in Cairn's terms,
 * with the source's own ids), and the error an unreadable input gets: file, line and field named.
 */
import { CairnError } from '../../errors.js';
import type { ChecklistItem, CommentKind, Kind, Links, Priority } from '../../model/task.js';
import type { Checkpoint, Evidence } from '../../model/coordination.js';
import type { Status, TemplateName } from '../../model/workflow.js';
import type { ProjectRow } from '../../rows.js';
import type { StoredEvent } from '../../transfer-port.js';
import { SOURCES, type SourceName } from '../../model/transfer.js';

export { SOURCES, type SourceName };

/** Where an item came from, for errors and reports: a file and, when it has them, a line. */
export interface SourceAt {
  file: string;
  line?: number;
}

/**
 * A project as a source gives it: the row's own fields (the root is the repository the source was
 * read from), plus how to find it and its workflow. Cairn exports carry the uid and key; other
 * sources suggest a key.
 */
export interface IncomingProject
  extends Pick<ProjectRow, 'key' | 'name' | 'description' | 'root' | 'aliases' | 'requireEvidence' | 'archivedAt'>,
    Partial<Pick<ProjectRow, 'uid' | 'createdAt' | 'updatedAt'>> {
  type: 'project';
  at: SourceAt;
  /** The source's name for the project; tasks name their project by it. */
  ref: string;
  /** The workflow; else the template's. */
  statuses?: Status[];
  template: TemplateName;
  nextSeq?: number;
  /** Project-level history (Cairn exports). */
  events?: StoredEvent[];
}

export interface IncomingComment {
  /** Stable across imports of one source (so a second import adds nothing). */
  id: string;
  author: string;
  kind: CommentKind;
  body: string;
  createdAt: string;
}

export interface IncomingTask {
  type: 'task';
  at: SourceAt;
  projectRef: string;
  /** The task's id in the source (a Cairn export: its uid). */
  sourceId: string;
  /** The id as the source's own users see it, when it differs from sourceId (Task Master's "3" for "master:3"). */
  shownId?: string;
  /** Cairn exports: the internal id, display number and version to keep. */
  uid?: string;
  seq?: number;
  version?: number;
  title: string;
  description: string;
  status: string;
  kind: Kind;
  priority: Priority;
  score: number;
  position?: number;
  labels: string[];
  assignee: string | null;
  substatus: string | null;
  slug: string | null;
  claim: { actor: string; expiresAt: string | null } | null;
  /** The parent's source id (a uid for Cairn exports). */
  parent: string | null;
  /** Blockers by source id, with when the edge was made when known. */
  blockedBy: Array<{ ref: string; at?: string }>;
  checklist: Array<Pick<ChecklistItem, 'text' | 'checked'>>;
  comments: IncomingComment[];
  links: Links;
  anchors: string[];
  /** Paths or globs the task edits (Cairn's own exports carry them). */
  touches?: string[];
  /** What showed it done, and the latest hand-on (Cairn's own exports carry them). */
  evidence?: Evidence | null;
  checkpoint?: Checkpoint | null;
  closeReason: string | null;
  origin: string | null;
  documentPath: string | null;
  createdAt?: string;
  updatedAt?: string;
  completedAt?: string | null;
  archivedAt?: string | null;
  deletedAt?: string | null;
  /** The task's history (Cairn exports); other sources get one task.imported event. */
  events?: StoredEvent[];
}

export type ImportItem = IncomingProject | IncomingTask;

/** Reports how far a reader got (0..1 of its input), for a progress bar. */
export type ProgressFn = (done: number) => void;

/** Bad input: names the file, the line when there is one, and the field. Nothing is imported. */
export function importError(at: SourceAt, field: string | null, problem: string): CairnError {
  const where = `${at.file}${at.line !== undefined ? `:${at.line}` : ''}`;
  return new CairnError('VALIDATION_ERROR', `${where}${field ? `: field "${field}"` : ''}: ${problem}. Nothing was imported.`, {
    suggestions: ['Fix the input and run the import again; --dry-run checks it without writing'],
    details: { file: at.file, ...(at.line !== undefined ? { line: at.line } : {}), ...(field ? { field } : {}) },
  });
}

type Obj = Record<string, unknown>;

/**
 * Field readers that fail with the file, line and field named. A class, not an object of closures:
 * an import reads every task through several of these, and per-call closures would be the largest
 * source of garbage in a large import.
 */
export class Reader {
  readonly obj: Obj;
  constructor(
    private readonly at: SourceAt,
    o: unknown,
    private readonly path = '',
  ) {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) throw importError(at, path || null, 'expected an object');
    this.obj = o as Obj;
  }

  #name(k: string): string {
    return this.path ? `${this.path}.${k}` : k;
  }

  #fail(k: string, what: string): never {
    throw importError(this.at, this.#name(k), `expected ${what}, got ${JSON.stringify(this.obj[k]) ?? 'nothing'}`);
  }

  #absent(k: string): boolean {
    return this.obj[k] === undefined || this.obj[k] === null;
  }

  has(k: string): boolean {
    return !this.#absent(k);
  }
  str(k: string): string {
    const v = this.obj[k];
    return typeof v === 'string' ? v : this.#fail(k, 'a string');
  }
  strOr<D>(k: string, d: D): string | D {
    return this.#absent(k) ? d : this.str(k);
  }
  num(k: string): number {
    const v = this.obj[k];
    return typeof v === 'number' && Number.isFinite(v) ? v : this.#fail(k, 'a number');
  }
  numOr<D>(k: string, d: D): number | D {
    return this.#absent(k) ? d : this.num(k);
  }
  bool(k: string, d: boolean): boolean {
    const v = this.obj[k];
    return this.#absent(k) ? d : typeof v === 'boolean' ? v : this.#fail(k, 'true or false');
  }
  arr(k: string): unknown[] {
    const v = this.obj[k];
    return this.#absent(k) ? [] : Array.isArray(v) ? v : this.#fail(k, 'a list');
  }
  strs(k: string): string[] {
    const v = this.#absent(k) ? [] : this.obj[k];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return this.#fail(k, 'a list of strings');
    return v as string[];
  }
  oneOf<T extends string>(k: string, values: readonly T[], d?: T): T {
    const v = this.obj[k];
    if (this.#absent(k) && d !== undefined) return d;
    return values.includes(v as T) ? (v as T) : this.#fail(k, `one of ${values.join(', ')}`);
  }
  /** A value a schema accepts; absent: null. */
  checked<T>(k: string, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, what: string): T | null {
    if (this.#absent(k)) return null;
    const r = schema.safeParse(this.obj[k]);
    return r.success ? r.data : this.#fail(k, what);
  }
  field(k: string): Reader {
    return new Reader(this.at, this.obj[k], this.#name(k));
  }
}

export const reader = (at: SourceAt, o: unknown, path = ''): Reader => new Reader(at, o, path);

/** A title Cairn accepts (1–200 characters): longer ones are cut with an ellipsis, empty ones named. */
export function fitTitle(title: string, fallback: string): string {
  const t = title.trim().replace(/\s+/g, ' ');
  if (!t) return fallback;
  return t.length <= 200 ? t : `${t.slice(0, 199)}…`;
}

/** A label Cairn accepts: trimmed, no commas, at most 50 characters; empty ones dropped. */
export function fitLabels(labels: string[]): string[] {
  const out = labels.map((l) => l.trim().replace(/,/g, ' ').replace(/\s+/g, ' ').slice(0, 50).trim()).filter((l) => l.length > 0);
  return [...new Set(out)].slice(0, 50);
}

/** A checklist item text Cairn accepts (1–500 characters). */
export const fitItem = (text: string): string => {
  const t = text.trim();
  return t.length <= 500 ? t : `${t.slice(0, 499)}…`;
};

/** Timestamps normalised to ISO-8601 UTC, as Cairn stores them; unparseable ones are an error. */
export function isoTime(at: SourceAt, field: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const d =
    typeof value === 'number' ? new Date(value) : typeof value === 'string' ? new Date(value.includes('T') || !/^\d{4}-\d\d-\d\d \d/.test(value) ? value : `${value.replace(' ', 'T')}Z`) : undefined;
  if (!d || Number.isNaN(d.getTime())) throw importError(at, field, `expected a date and time, got ${JSON.stringify(value)}`);
  return d.toISOString();
}

/** Read-only access to another application's SQLite file (Castle's castle.db), provided by the entry point. */
export interface ForeignSqlite {
  /** Rows of a query. */
  all(sql: string): Array<Record<string, unknown>>;
  /** Column names of a table (empty when the table does not exist). */
  columns(table: string): string[];
  close(): void;
}
