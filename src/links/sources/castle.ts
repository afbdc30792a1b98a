/**
 * Castle's castle.db (seeds 000 and 001) as a linked source. Castle's app keeps the database in
 * memory (sql.js) and saves the whole file about a second after each change, so the link reads a
 * consistent copy of the file (the bytes, checked unchanged across the read, opened in memory) and
 * by default never writes it: a row written while the app runs would be lost at its next save.
 * With the link made writable (`cairn link … --writable`, for when the app is closed) changes are
 * written in Castle's schema, one transaction per write, to the columns the file has.
 */
import { readFileSync } from 'node:fs';
import { nodeCrypto } from '../../core/lazy-builtins.js';
import { readCastle } from '../../core/services/import/castle.js';
import { templateStatusNames } from '../../core/model/workflow.js';
import { PrState } from '../../core/model/task.js';
import { fitLabels, fitTitle, type IncomingTask } from '../../core/services/import/model.js';
import type { ForeignSqlite } from '../../core/services/import/sources.js';
import type { Links } from '../../core/model/task.js';
import { SourceBusy, type Held, type HeldField, type LinkedTask, type LinkSource, type SourceRead, type WriteBatch, type WriteResult } from '../source.js';
import { stampOf } from '../stamps.js';
import { SingleFileSource } from './single-file.js';
import { checkUnmoved } from './atomic.js';

/** Castle's states: the castle template's statuses (src/profiles/castle/template.ts, registered at start). */
const STATES = templateStatusNames('castle');

/** A SQLite database another program owns, as the link reads and (when allowed) writes it. */
export interface ForeignDb extends ForeignSqlite {
  run(sql: string, params?: unknown[]): void;
  /** Runs `fn` in one transaction. */
  transaction(fn: () => void): void;
}

/** SQLite access the entry point gives the links (the store layer's driver). */
export interface SqliteAccess {
  /** A database image held in memory: a consistent copy of a file another program rewrites. */
  fromBuffer(image: Buffer): ForeignDb;
  /** The file itself, opened to write. */
  openFile(path: string): ForeignDb;
}

const FIELDS: readonly HeldField[] = ['title', 'description', 'status', 'kind', 'labels', 'assignee', 'links', 'closeReason'];
const CASTLE_KINDS = ['feature', 'bug', 'chore', 'spike'];
const PR_STATES: readonly string[] = PrState.options;

/** A held value as a castle.db row stores it and reads back. */
export function castleView(h: Held): Held {
  const links: Links = {};
  for (const k of ['branch', 'worktree', 'prUrl'] as const) if (h.links[k]) links[k] = h.links[k];
  if (h.links.prNumber && h.links.prNumber > 0) links.prNumber = h.links.prNumber;
  if (h.links.prState && PR_STATES.includes(h.links.prState)) links.prState = h.links.prState;
  if (h.links.issue) links.issue = h.links.issue;
  return {
    ...h,
    title: fitTitle(h.title, 'Castle task'),
    kind: (CASTLE_KINDS.includes(h.kind) ? h.kind : 'feature') as Held['kind'],
    labels: fitLabels(h.labels).sort(),
    assignee: h.assignee === null || h.assignee === '' ? null : h.assignee.startsWith('agent:') ? h.assignee : `agent:${h.assignee}`,
    closeReason: h.closeReason === '' ? null : h.closeReason,
    links,
  };
}

/** Castle's DATETIME text: `YYYY-MM-DD HH:MM:SS` in UTC, as CURRENT_TIMESTAMP writes it. */
const sqlTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

export class CastleSource extends SingleFileSource implements LinkSource {
  readonly kind = 'castle' as const;
  readonly fields = FIELDS;
  /** Castle-template projects made in the workspace are Castle projects (a project path); refused while read-only. */
  readonly holdsProjects = true;
  readonly overwritesWhole = true;
  readonly label: string;
  readonly readOnlyReason = "Castle's app keeps its database in memory and saves the whole file about a second after each change, so a row written while it runs would be lost";

  constructor(
    path: string,
    private readonly sqlite: SqliteAccess,
  ) {
    super(path);
    this.label = `Castle's database ${path}`;
  }

  /** Tasks by the text of their row (import/castle.ts): a save that changed one row converts one row. */
  readonly #rows = new Map<string, IncomingTask>();

  view = castleView;

  async read(): Promise<SourceRead> {
    const out = this.nothing();
    const before = stampOf(this.path);
    // No file: nothing to read and nothing gone (Castle saves in place; a missing file is not an empty one).
    if (before === undefined) return out;
    const image = readFileSync(this.path);
    if (stampOf(this.path) !== before || !wholeImage(image)) throw new SourceBusy('Castle was saving the file while it was read');
    let db: ForeignDb;
    try {
      db = this.sqlite.fromBuffer(image);
    } catch (err) {
      throw new SourceBusy(`the file is not a readable SQLite database (${(err as Error).message})`);
    }
    if (db.columns('tasks').length === 0) {
      db.close();
      out.warnings.push('it has no "tasks" table, so it holds no Castle tasks');
      return out;
    }
    const bad = (err: Error) => out.warnings.push(err.message.replace(/ Nothing was imported\.$/, ', so that row is left out'));
    return this.collect(
      readCastle(this.path, () => db, undefined, { onBad: bad, cache: this.#rows }),
      out,
      false,
    );
  }

  write(batch: WriteBatch): WriteResult {
    checkUnmoved(this.path, '', batch.stamps.get(''));
    const result: WriteResult = { items: [], removed: [], files: new Map(), projects: [], identities: [] };
    for (const p of batch.projects) if (p.ref === undefined) result.projects.push({ projectUid: p.row.uid, ref: p.row.root ?? '' });
    if (batch.upserts.length || batch.deletes.length) {
      const db = this.sqlite.openFile(this.path);
      try {
        const cols = new Set(db.columns('tasks'));
        db.transaction(() => {
          for (const t of batch.upserts) result.items.push({ taskUid: t.row.uid, sourceId: this.#upsert(db, cols, t, batch.now), file: null });
          for (const d of batch.deletes) {
            if (db.columns('task_label_assignments').length) db.run('DELETE FROM task_label_assignments WHERE task_id = ?', [d.item.sourceId]);
            db.run('DELETE FROM tasks WHERE id = ?', [d.item.sourceId]);
            result.removed.push(d.item.sourceId);
          }
        });
      } finally {
        db.close();
      }
      result.files.set('', stampOf(this.path));
    }
    return result;
  }

  /** Writes one task's row (and its labels) in the columns the file has; returns the row's id. */
  #upsert(db: ForeignDb, cols: Set<string>, t: LinkedTask, now: string): string {
    const h = this.view(t.held);
    if (!STATES.includes(h.status)) throw new Error(`status "${h.status}" is not a Castle state (${STATES.join(', ')})`);
    const issue = /^(.*)#(\d+)$/.exec(h.links.issue ?? '');
    const values: Record<string, unknown> = {
      title: h.title,
      description: h.description,
      state: h.status,
      kind: h.kind,
      implement_agent_id: h.assignee ? h.assignee.replace(/^agent:/, '') : null,
      close_reason: h.closeReason,
      branch_name: h.links.branch ?? null,
      worktree_path: h.links.worktree ?? null,
      pr_url: h.links.prUrl ?? null,
      pr_number: h.links.prNumber ?? null,
      pr_state: h.links.prState ?? null,
      github_repo: issue ? issue[1] || null : (h.links.issue ?? null),
      github_issue_number: issue ? Number(issue[2]) : null,
      updated_at: sqlTime(now),
    };
    const id = t.item?.sourceId ?? nodeCrypto().randomUUID();
    const present = Object.entries(values).filter(([c]) => cols.has(c));
    if (t.item) {
      db.run(`UPDATE tasks SET ${present.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ?`, [...present.map(([, v]) => v), id]);
    } else {
      const row = [['id', id], ['project_path', t.projectRef], ['created_at', sqlTime(t.row.createdAt)], ...present].filter(([c]) => cols.has(c as string));
      db.run(
        `INSERT INTO tasks (${row.map(([c]) => c).join(', ')}) VALUES (${row.map(() => '?').join(', ')})`,
        row.map(([, v]) => v),
      );
    }
    if (db.columns('task_label_assignments').length && db.columns('task_labels').length) this.#labels(db, id, h.labels);
    return id;
  }

  #labels(db: ForeignDb, taskId: string, labels: string[]): void {
    db.run('DELETE FROM task_label_assignments WHERE task_id = ?', [taskId]);
    for (const name of labels) {
      let found = db.all(`SELECT id FROM task_labels WHERE name = '${name.replace(/'/g, "''")}'`)[0]?.id;
      if (found === undefined) {
        found = nodeCrypto().randomUUID();
        db.run('INSERT INTO task_labels (id, name) VALUES (?, ?)', [found, name]);
      }
      db.run('INSERT INTO task_label_assignments (task_id, label_id) VALUES (?, ?)', [taskId, found]);
    }
  }
}

/** Whether a SQLite image is whole: its header's page count times page size fits the bytes read. */
function wholeImage(image: Buffer): boolean {
  if (image.length < 100 || image.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return false;
  const raw = image.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = image.readUInt32BE(28);
  // The in-header size is valid only when the change counter matches "version-valid-for"; otherwise trust the length.
  if (image.readUInt32BE(24) !== image.readUInt32BE(92) || pages === 0) return image.length % pageSize === 0;
  return image.length >= pages * pageSize && image.length % pageSize === 0;
}
