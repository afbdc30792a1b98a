/**
 * The import engine: takes projects and tasks from any source reader and writes them inside the
 * caller's one transaction, so everything is imported or nothing. Idempotent: Cairn exports merge by
 * internal id (a newer version wins), other sources by the source id each task's `task.imported`
 * event remembers. New tasks are written in batches, many rows per statement, and indexed for
 * search together at the end; parents and blocking edges are linked once every task exists. With
 * `dryRun` it only counts what it would do, reading through the same code path.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Context } from '../../context.js';
import { nowIso } from '../../context.js';
import { newUlid as ulid } from '../../model/ids.js';
import { templateStatuses, type Status } from '../../model/workflow.js';
import type { ProjectRow, TaskPatch, TaskRow, Tx } from '../../ports.js';
import type { StoredEvent } from '../../transfer-port.js';
import { freeAliases } from '../alias-conflicts.js';
import { withoutCycles } from './acyclic.js';
import { TaskBatch } from './batch.js';
import { importError, type IncomingProject, type IncomingTask, type SourceAt, type SourceName } from './model.js';
import { checkProject, checkTask } from './validate.js';
import type { TaskFieldName } from '../export-fields.js';

/**
 * What an update of an existing task does with each field of a task line (TASK_FIELDS): a field
 * added there fails the build until it is placed here. `compared`: patched when it differs;
 * `whenGiven`: the same, but only when the source has the field at all; `cairn`: taken whole from a
 * newer Cairn export; `own`: a rule of its own below; `linked`: set once every task is in; `identity`:
 * never changed by an update.
 */
const ON_UPDATE = {
  id: 'identity',
  uid: 'identity',
  createdAt: 'identity',
  title: 'compared',
  description: 'compared',
  kind: 'compared',
  priority: 'compared',
  score: 'compared',
  assignee: 'compared',
  substatus: 'compared',
  slug: 'compared',
  links: 'compared',
  anchors: 'compared',
  closeReason: 'compared',
  origin: 'compared',
  documentPath: 'compared',
  touches: 'whenGiven',
  evidence: 'whenGiven',
  checkpoint: 'whenGiven',
  status: 'own',
  labels: 'own',
  checklist: 'own',
  parent: 'linked',
  blockedBy: 'linked',
  position: 'cairn',
  claim: 'cairn',
  version: 'cairn',
  updatedAt: 'cairn',
  completedAt: 'cairn',
  archivedAt: 'cairn',
  deletedAt: 'cairn',
} as const satisfies Record<TaskFieldName, 'identity' | 'compared' | 'whenGiven' | 'cairn' | 'own' | 'linked'>;
type Handled = typeof ON_UPDATE;
type FieldsBy<R> = { [K in keyof Handled]: Handled[K] extends R ? K : never }[keyof Handled];
const fieldsBy = <R extends Handled[keyof Handled]>(rule: R) => (Object.keys(ON_UPDATE) as Array<keyof Handled>).filter((k): k is FieldsBy<R> => ON_UPDATE[k] === rule);
const COMPARED = fieldsBy('compared');
const WHEN_GIVEN = fieldsBy('whenGiven');

export const IMPORTED_EVENT = 'task.imported';

export interface ImportReport {
  source: SourceName;
  dryRun: boolean;
  projects: {
    created: string[];
    existing: string[];
    /** Where new projects were rooted (agents started inside a root default to its project), and why there. */
    rooted: Array<{ key: string; root: string; because: string }>;
  };
  tasks: { created: number; updated: number; unchanged: number };
  /** Tasks whose number here differs from the one they had: the id they had (a display id taken here, or another tool's number) and the one they got. */
  renumbered: Array<{ from: string; to: string }>;
  warnings: string[];
}

interface TargetProject {
  row: ProjectRow;
  statuses: Status[];
  isNew: boolean;
  /** Source id → task uid, from the project's task.imported events (other sources), loaded on first use. */
  bySource?: Map<string, string>;
  maxSeq: number;
  /** Numbers this import gave tasks, written or still batched. */
  seqs: Set<number>;
  /** The last position of each lane a new task was appended to, read once and then kept here. */
  lanes: Map<string, number>;
}

/** What a task still needs once every task exists: its parent and blockers, by source id. */
interface Pending {
  uid: string;
  projectRef: string;
  parent: string | null;
  blockedBy: Array<{ ref: string; at?: string }>;
  /** Edges and parent are replaced (an update), not only added (a new task). */
  replace: boolean;
  at: IncomingTask['at'];
}

/**
 * A linked source's sync (links/pull.ts) drives the importer: records are found by the link's own
 * map of source ids (which receives the tasks it creates), and an update touches only the fields
 * the source holds, so Cairn's own data on a linked task (a checklist Castle cannot hold, an agent's
 * dependencies) is never replaced by the source's absence of it.
 */
export interface LinkImport {
  bySource: Map<string, string>;
  fields: ReadonlySet<string>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const eventKey = (e: Pick<StoredEvent, 'at' | 'type' | 'actor'>) => `${e.at}\u0000${e.type}\u0000${e.actor}`;
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

export class Importer {
  readonly report: ImportReport;
  readonly #projects = new Map<string, TargetProject>();
  readonly #pending: Pending[] = [];
  /** Tasks an update changed: their dependents' blocker counts are refreshed at the end. */
  readonly #updated: string[] = [];
  /** Cairn exports: uids this import wrote (a dry run's stand in for the store). */
  readonly #seen = new Map<string, string>();
  #keepSeq = false;
  /**
   * Events this import appends (as opposed to restored ones, which keep their numbers), held until
   * the end and numbered there at once: on PostgreSQL every writer needs the feed counter's lock to
   * number an event, so taking it at the first event would stall them all for the whole import.
   */
  readonly #later: Array<Omit<StoredEvent, 'seq'>> = [];
  readonly #batch: TaskBatch;
  /** The workspace had nothing when the import began: no task can exist but those this import wrote. */
  #empty = false;
  readonly #now: string;

  constructor(
    private readonly tx: Tx,
    private readonly ctx: Context,
    private readonly opts: { source: SourceName; dryRun: boolean; project?: string; link?: LinkImport; cwd?: string },
  ) {
    this.report = { source: opts.source, dryRun: opts.dryRun, projects: { created: [], existing: [], rooted: [] }, tasks: { created: 0, updated: 0, unchanged: 0 }, renumbered: [], warnings: [] };
    this.#batch = new TaskBatch(tx);
    this.#now = nowIso(ctx);
  }

  get #write(): boolean {
    return !this.opts.dryRun;
  }

  /** Whether an update may change this field: every field for an import, the source's own for a link. */
  readonly #held = (field: string): boolean => !this.opts.link || this.opts.link.fields.has(field);

  /** Holds an appended event for finish() (see #later), stamped now as record() would stamp it. */
  #append(e: {
    projectUid: string | null;
    taskUid: string | null;
    type: string;
    changes: Record<string, { before: unknown; after: unknown }> | string;
    at?: string;
    actor?: string;
    via?: string | null;
  }): void {
    this.#later.push({
      at: e.at ?? nowIso(this.ctx),
      actor: e.actor ?? this.ctx.actor,
      via: e.actor !== undefined ? (e.via ?? null) : (this.ctx.via ?? null),
      projectUid: e.projectUid,
      taskUid: e.taskUid,
      type: e.type,
      changes: typeof e.changes === 'string' ? e.changes : JSON.stringify(e.changes),
    });
  }

  /** The project an incoming project's ref became (created or found), once `project()` saw it. */
  projectOf(ref: string): ProjectRow | undefined {
    return this.#projects.get(ref)?.row;
  }

  /** An empty history keeps the file's event numbers (a restore); otherwise events are appended. */
  async start(): Promise<void> {
    this.#empty = (await this.tx.lastSeq()) === 0 && (await this.tx.listProjects(true)).length === 0;
    this.#keepSeq = this.opts.source === 'cairn' && (await this.tx.lastSeq()) === 0;
  }

  async project(p: IncomingProject): Promise<void> {
    const { tx } = this;
    if (this.opts.project) p.key = this.opts.project;
    checkProject(p);
    const key = p.key;
    let row = this.opts.project ? await tx.getProjectByKey(key) : ((p.uid ? await tx.getProjectByUid(p.uid) : undefined) ?? (await tx.getProjectByKey(key)));
    row ??= this.#projects.get(p.ref)?.row;
    if (row) {
      if (!this.report.projects.existing.includes(row.key) && !this.report.projects.created.includes(row.key)) this.report.projects.existing.push(row.key);
      const statuses = await tx.getStatuses(row.uid);
      this.#projects.set(p.ref, { row, statuses, isNew: false, maxSeq: 0, seqs: new Set(), lanes: new Map() });
      if (p.events?.length) {
        const have = new Set((await tx.transfer.projectEvents(row.uid)).map(eventKey));
        await this.#events(
          p.events.filter((e) => !have.has(eventKey(e))),
          row.uid,
          null,
        );
      }
      return;
    }
    const statuses = p.statuses ?? templateStatuses(p.template);
    // As create would refuse them, aliases another project holds are left out, and the report says so.
    if (this.#write) await tx.exclusive('projects');
    const { free, taken } = await freeAliases(tx, p.aliases, null);
    for (const t of taken)
      this.report.warnings.push(`${p.at.file}${p.at.line !== undefined ? `:${p.at.line}` : ''}: alias "${t.alias}" of project ${key} left out: it already names project ${t.holder}`);
    p.aliases = free;
    p.root = this.#rootOf(p, key);
    row = {
      uid: (!this.opts.project && p.uid) || ulid(),
      key,
      name: p.name,
      description: p.description,
      root: p.root,
      aliases: p.aliases,
      ...(p.requireEvidence ? { requireEvidence: true } : {}),
      archivedAt: p.archivedAt,
      createdAt: p.createdAt ?? this.#now,
      updatedAt: p.updatedAt ?? this.#now,
    };
    this.report.projects.created.push(key);
    this.#projects.set(p.ref, { row, statuses, isNew: true, maxSeq: 0, seqs: new Set(), lanes: new Map() });
    if (!this.#write) return;
    await tx.insertProject(
      row,
      statuses.map((s, position) => ({ ...s, position })),
    );
    if (p.nextSeq) await tx.transfer.raiseNextSeq(row.uid, p.nextSeq);
    if (p.events) await this.#events(p.events, row.uid, null);
    else
      this.#append({
        projectUid: row.uid,
        taskUid: null,
        type: 'project.created',
        changes: { key: { before: null, after: key }, name: { before: null, after: p.name }, importedFrom: { before: null, after: this.opts.source } },
      });
  }

  /**
   * Where a new project is rooted, so the next `cairn add` or `create_task` inside it finds it: the
   * repository it came from, or, when the root it records is not on this machine (an export from
   * another clone), the folder the import runs in. Said in the report.
   */
  #rootOf(p: IncomingProject, key: string): string | null {
    const recorded = p.root;
    if (recorded && isAbsolute(recorded) && existsSync(recorded)) {
      this.report.projects.rooted.push({ key, root: recorded, because: this.opts.source === 'cairn' ? 'the root the export records' : `the repository it came from` });
      return recorded;
    }
    // One project of an export takes the folder the import runs in: two rooted at one folder would
    // leave it unclear which one commands there mean. Castle's own paths are kept as they are.
    if (recorded && this.opts.cwd && this.opts.source === 'cairn' && !this.report.projects.rooted.some((r) => r.root === this.opts.cwd)) {
      this.report.projects.rooted.push({ key, root: this.opts.cwd, because: `the folder the import ran in: the root the export records (${recorded}) is not on this machine` });
      return this.opts.cwd;
    }
    if (recorded && this.opts.source === 'cairn') this.report.warnings.push(`project ${key}: its root ${recorded} is not on this machine; set it with cairn project update ${key} --root PATH`);
    return recorded;
  }

  #target(t: IncomingTask): TargetProject {
    const p = this.#projects.get(t.projectRef);
    if (!p) throw importError(t.at, 'project', `names project "${t.projectRef}", which the input does not define before it`);
    return p;
  }

  async task(t: IncomingTask): Promise<void> {
    const p = this.#target(t);
    // Other tools' tasks say where they came from, as handed-off tasks do.
    if (this.opts.source !== 'cairn' && t.origin === null) t.origin = `${this.opts.source}:${t.sourceId}`.slice(0, 500);
    checkTask(t);
    this.#once(t);
    const found = await this.#existing(p, t);
    if (found && !found.row) {
      // A task an earlier import made, found by its source id: anything batched is written first, so it is read.
      await this.#batch.flush();
      found.row = await this.tx.getTask(found.uid);
    }
    if (found?.row) await this.#update(p, t, found.row);
    else if (found && this.opts.dryRun) this.report.tasks.unchanged++;
    else await this.#create(p, t);
  }

  /** Where each task of the input was, by project and source id: a task named twice is an error naming both places. */
  readonly #places = new Map<string, SourceAt>();

  #once(t: IncomingTask): void {
    const key = `${t.projectRef}\u0000${t.sourceId}`;
    const first = this.#places.get(key);
    if (first) {
      const where = `${first.file}${first.line !== undefined ? `:${first.line}` : ''}`;
      throw importError(t.at, 'id', `"${t.sourceId}" is also the id of the task at ${where}; each task may appear once`);
    }
    this.#places.set(key, t.at.line !== undefined ? t.at : { file: t.at.file });
  }

  /** The task the target has for `t`: its uid, and its row when finding it read that. */
  async #existing(p: TargetProject, t: IncomingTask): Promise<{ uid: string; row?: TaskRow | undefined } | undefined> {
    if (this.opts.source === 'cairn') {
      const seen = this.#seen.get(t.sourceId);
      if (seen || this.#empty) return seen ? { uid: seen } : undefined;
      const uid = t.uid ?? t.sourceId;
      const row = await this.tx.getTask(uid);
      return row && { uid, row };
    }
    if (!p.bySource && this.opts.link) p.bySource = this.opts.link.bySource;
    if (!p.bySource) {
      p.bySource = new Map();
      if (!p.isNew) {
        for (const e of await this.tx.transfer.eventsOfType(p.row.uid, IMPORTED_EVENT)) {
          const c = JSON.parse(e.changes) as Record<string, { after: unknown }>;
          if (c.source?.after === this.opts.source && typeof c.sourceId?.after === 'string' && e.taskUid) p.bySource.set(c.sourceId.after, e.taskUid);
        }
      }
    }
    const uid = p.bySource.get(t.sourceId);
    return uid ? { uid } : undefined;
  }

  #status(p: TargetProject, t: IncomingTask): Status {
    const s = p.statuses.find((x) => x.name === t.status);
    if (!s) throw importError(t.at, 'status', `"${t.status}" is not a status of project ${p.row.key} (${p.statuses.map((x) => x.name).join(', ')})`);
    return s;
  }

  async #create(p: TargetProject, t: IncomingTask): Promise<void> {
    const { tx } = this;
    const status = this.#status(p, t);
    const uid = t.uid ?? ulid();
    this.report.tasks.created++;
    this.#seen.set(t.sourceId, uid);
    p.bySource?.set(t.sourceId, uid);
    this.#pending.push({ uid, projectRef: t.projectRef, parent: t.parent, blockedBy: t.blockedBy, replace: false, at: t.at });
    let seq = t.seq;
    const wanted = t.seq !== undefined ? `${p.row.key}-${t.seq}` : undefined;
    if (seq !== undefined && (p.seqs.has(seq) || (p.isNew && seq > p.maxSeq ? false : (await tx.getTaskBySeq(p.row.uid, seq)) !== undefined))) seq = undefined;
    if (!this.#write) return;
    // The project's counter is raised only at the end: skip numbers this import has given already.
    while (seq === undefined || p.seqs.has(seq)) seq = await tx.allocateSeq(p.row.uid);
    p.seqs.add(seq);
    p.maxSeq = Math.max(p.maxSeq, seq);
    const now = this.#now;
    const checklist = t.checklist.map((i, index) => ({ index, text: i.text, checked: i.checked }));
    const labels = [...new Set(t.labels)].sort(byBytes);
    // A parent this import already wrote goes in with the row (the insert trigger links it), sparing an update later.
    const parentAtInsert = t.parent !== null ? (this.opts.source === 'cairn' ? this.#seen.get(t.parent) : p.bySource?.get(t.parent)) : undefined;
    const pend = this.#pending[this.#pending.length - 1]!;
    if (parentAtInsert) pend.parent = null;
    // Nothing left to link: not kept for finish (most tasks of a large import).
    if (pend.parent === null && pend.blockedBy.length === 0) this.#pending.pop();
    const updatedAt = t.updatedAt ?? t.createdAt ?? now;
    const row = {
      uid,
      projectUid: p.row.uid,
      projectKey: p.row.key,
      seq,
      title: t.title,
      description: t.description,
      status: status.name,
      category: status.category,
      kind: t.kind,
      priority: t.priority,
      score: t.score,
      position: t.position ?? (await this.#lastInLane(p, status.name)) + 1,
      assignee: t.assignee,
      substatus: t.substatus,
      slug: t.slug,
      claimedBy: t.claim?.actor ?? null,
      claimExpiresAt: t.claim?.expiresAt ?? null,
      claimGeneration: t.claim ? 1 : 0,
      claimWhere: null,
      touches: t.touches ?? [],
      evidence: t.evidence ?? null,
      checkpoint: t.checkpoint ?? null,
      parentUid: parentAtInsert ?? null,
      parentId: null,
      links: t.links,
      anchors: t.anchors,
      closeReason: t.closeReason,
      origin: t.origin,
      documentPath: t.documentPath,
      version: t.version ?? 1,
      createdAt: t.createdAt ?? now,
      updatedAt,
      completedAt: t.completedAt !== undefined ? t.completedAt : status.category === 'done' ? updatedAt : null,
      archivedAt: t.archivedAt ?? null,
      deletedAt: t.deletedAt ?? null,
      openBlockers: 0,
      openBlockerIds: [],
      checklistDone: 0,
      checklistTotal: checklist.length,
      labels,
      blockedBy: [],
      blocks: [],
      children: [],
    } as TaskRow;
    // A lane whose end is known moves with each task added to it.
    const last = p.lanes.get(row.status);
    if (last !== undefined && row.position > last) p.lanes.set(row.status, row.position);
    await this.#batch.add({ row, checklist, comments: t.comments });
    if (wanted && wanted !== `${p.row.key}-${seq}`) this.report.renumbered.push({ from: wanted, to: `${p.row.key}-${seq}` });
    else if (!wanted && this.opts.source !== 'cairn') {
      // Another tool's number ("3", "task-3", "bd-12") that this task did not keep (subtasks take numbers in between).
      const shown = t.shownId ?? t.sourceId;
      const n = /^(?:.*[-_:#])?(\d+)$/.exec(shown)?.[1];
      if (n !== undefined && Number(n) !== seq) this.report.renumbered.push({ from: shown, to: `${p.row.key}-${seq}` });
    }
    if (t.events) await this.#events(t.events, p.row.uid, uid);
    if (this.opts.source !== 'cairn') {
      this.#append({
        projectUid: p.row.uid,
        taskUid: uid,
        type: IMPORTED_EVENT,
        changes: {
          source: { before: null, after: this.opts.source },
          sourceId: { before: null, after: t.sourceId },
          title: { before: null, after: t.title },
          status: { before: null, after: status.name },
        },
      });
    } else if (wanted && wanted !== `${p.row.key}-${seq}`) {
      // Numbered after every restored event (restored ones keep their numbers, and are written in batches).
      this.#append({ projectUid: p.row.uid, taskUid: uid, type: 'task.renumbered', changes: { id: { before: wanted, after: `${p.row.key}-${seq}` }, source: { before: null, after: 'cairn' } } });
    }
  }

  /** The last position in a lane: read once (everything batched written first, so it counts), then kept as tasks are added. */
  async #lastInLane(p: TargetProject, status: string): Promise<number> {
    let last = p.lanes.get(status);
    if (last === undefined) {
      await this.#batch.flush();
      p.lanes.set(status, (last = await this.tx.maxLanePosition(p.row.uid, status)));
    }
    return last;
  }

  /** A task the target has: Cairn exports replace it when newer; other sources patch what changed. */
  async #update(p: TargetProject, t: IncomingTask, row: TaskRow): Promise<void> {
    if (this.opts.source === 'cairn' && (t.version ?? 0) <= row.version) {
      if ((t.version ?? 0) === row.version && t.updatedAt !== row.updatedAt)
        this.report.warnings.push(`${row.projectKey}-${row.seq}: both sides changed it to version ${row.version}; kept this workspace's`);
      this.report.tasks.unchanged++;
      return;
    }
    const status = this.#status(p, t);
    const patch: TaskPatch = {};
    const held = this.#held;
    for (const k of COMPARED) if (held(k) && !same(row[k], t[k])) (patch as Record<string, unknown>)[k] = t[k];
    // Only a source that has these (Cairn's own exports) says anything about them.
    for (const k of WHEN_GIVEN) if (t[k] !== undefined && held(k) && !same(row[k], t[k])) (patch as Record<string, unknown>)[k] = t[k];
    if (held('status') && row.status !== status.name) Object.assign(patch, { status: status.name, category: status.category });
    const cairn = this.opts.source === 'cairn';
    if (cairn) {
      Object.assign(patch, {
        position: t.position ?? row.position,
        claimedBy: t.claim?.actor ?? null,
        claimExpiresAt: t.claim?.expiresAt ?? null,
        version: t.version,
        updatedAt: t.updatedAt ?? row.updatedAt,
        completedAt: t.completedAt ?? null,
        archivedAt: t.archivedAt ?? null,
        deletedAt: t.deletedAt ?? null,
      });
    } else if (patch.status) {
      patch.completedAt = status.category === 'done' ? (row.completedAt ?? t.updatedAt ?? this.#now) : null;
    }
    const labels = [...new Set(t.labels)].sort(byBytes);
    const checklist = t.checklist.map((i, index) => ({ index, text: i.text, checked: i.checked }));
    const oldChecklist = held('checklist') ? await this.tx.getChecklist(row.uid) : [];
    const checklistChanged =
      held('checklist') &&
      !same(
        oldChecklist.map((i) => [i.text, i.checked]),
        checklist.map((i) => [i.text, i.checked]),
      );
    const labelsChanged = held('labels') && !same(row.labels, labels);
    const known = new Set((await this.tx.getComments(row.uid)).map((c) => c.id));
    const newComments = t.comments.filter((c) => !known.has(c.id));
    if (held('parent') || held('blockedBy')) this.#pending.push({ uid: row.uid, projectRef: t.projectRef, parent: t.parent, blockedBy: t.blockedBy, replace: true, at: t.at });
    const changed = Object.keys(patch).some(
      (k) =>
        !['version', 'updatedAt', 'position', 'claimedBy', 'claimExpiresAt', 'completedAt', 'archivedAt', 'deletedAt'].includes(k) ||
        !same((row as unknown as Record<string, unknown>)[k], (patch as Record<string, unknown>)[k]),
    );
    if (!changed && !checklistChanged && !labelsChanged && newComments.length === 0 && !cairn) {
      this.report.tasks.unchanged++;
      return;
    }
    this.report.tasks.updated++;
    this.#updated.push(row.uid);
    if (!this.#write) return;
    const { tx } = this;
    // A status or position this writes may end a lane: positions are read again.
    p.lanes.clear();
    if (labelsChanged) await tx.setLabels(row.uid, labels);
    if (checklistChanged) await tx.replaceChecklist(row.uid, checklist);
    for (const c of newComments) await tx.addComment(row.uid, c);
    if (cairn) {
      await tx.updateTask(row.uid, patch);
      const have = new Set((await tx.transfer.taskEvents(row.uid)).map(eventKey));
      await this.#events(
        (t.events ?? []).filter((e) => !have.has(eventKey(e))),
        p.row.uid,
        row.uid,
      );
    } else {
      const changes: Record<string, { before: unknown; after: unknown }> = {};
      // History names what changed: a field the patch restates (completedAt staying empty on a move between open lanes) is left out.
      for (const [k, v] of Object.entries(patch)) {
        const before = (row as unknown as Record<string, unknown>)[k] ?? null;
        if (!same(before, v ?? null)) changes[k] = { before, after: v };
      }
      if (labelsChanged) changes.labels = { before: row.labels, after: labels };
      if (checklistChanged) changes.checklist = { before: oldChecklist.length, after: checklist.length };
      if (newComments.length) changes.comments = { before: null, after: newComments.length };
      await tx.updateTask(row.uid, { ...patch, version: row.version + 1, updatedAt: this.#now });
      this.#append({ projectUid: p.row.uid, taskUid: row.uid, type: 'task.updated', changes: { ...changes, source: { before: null, after: this.opts.source } } });
    }
    // A task this import created and now changes again is indexed with the others, from its final text.
    if (!this.#batch.unindexed(row.uid)) await tx.reindexTask(row.uid);
  }

  async #events(events: StoredEvent[], projectUid: string, taskUid: string | null): Promise<void> {
    if (!this.#write) return;
    const placed = events.map((e) => ({ ...e, projectUid, taskUid: taskUid ?? e.taskUid }));
    // Events that keep their own seqs may be written in any order, so they go with the tasks' batch.
    // Appended events get numbers the way the engine numbers every event (on PostgreSQL, under a lock).
    if (this.#keepSeq) this.#batch.addEvents(placed);
    else for (const e of placed) this.#append({ at: e.at, actor: e.actor, via: e.via, projectUid: e.projectUid, taskUid: e.taskUid, type: e.type, changes: e.changes });
  }

  #cycleWarnings: Array<{ cycle: string[]; at: string }> = [];

  /** Edges left out because they closed a cycle, named by display id. */
  async #warnCycles(): Promise<void> {
    if (!this.#cycleWarnings.length) return;
    const rows = await this.tx.getTasks([...new Set(this.#cycleWarnings.flatMap((w) => w.cycle))]);
    const id = new Map(rows.map((r) => [r.uid, `${r.projectKey}-${r.seq}`]));
    for (const { cycle, at } of this.#cycleWarnings) {
      const path = cycle.map((u) => id.get(u) ?? u);
      this.report.warnings.push(`${at}: ${path[1]} blocking ${path[0]} left out: it would close the cycle ${path.join(' → ')}`);
    }
  }

  /** Links parents and blockers now that every task exists, refreshes blocker counts and project numbers. */
  async finish(): Promise<ImportReport> {
    const { tx } = this;
    if (this.#write) await this.#batch.flush();
    const touched: string[] = [];
    /** Edges to add, in input order, once they are known not to close a cycle; new tasks' are added together. */
    const edges: Array<{ taskUid: string; blockerUid: string; at: string; existing: boolean }> = [];
    const fresh = new Set(this.#pending.filter((p) => !p.replace).map((p) => p.uid));
    const where = new Map<string, string>();
    for (const pend of this.#pending) {
      const p = this.#projects.get(pend.projectRef)!;
      const resolve = async (ref: string, field: string): Promise<string | undefined> => {
        const uid = this.opts.source === 'cairn' ? (this.#seen.get(ref) ?? ((await tx.getTask(ref)) ? ref : undefined)) : p.bySource?.get(ref);
        if (!uid) this.report.warnings.push(`${pend.at.file}${pend.at.line ? `:${pend.at.line}` : ''}: ${field} "${ref}" is not in the input or the workspace; left out`);
        return uid;
      };
      const parent = pend.parent ? await resolve(pend.parent, 'parent') : undefined;
      const blockers: Array<{ uid: string; at?: string }> = [];
      for (const b of pend.blockedBy) {
        const uid = await resolve(b.ref, 'blocker');
        if (uid && uid !== pend.uid && !blockers.some((x) => x.uid === uid)) blockers.push({ uid, ...(b.at ? { at: b.at } : {}) });
      }
      if (!this.#write) continue;
      where.set(pend.uid, `${pend.at.file}${pend.at.line ? `:${pend.at.line}` : ''}`);
      if (!pend.replace) {
        if (parent) await tx.updateTask(pend.uid, { parentUid: parent });
        for (const b of blockers) edges.push({ taskUid: pend.uid, blockerUid: b.uid, at: b.at ?? this.#now, existing: false });
        if (blockers.length) touched.push(pend.uid);
        continue;
      }
      const row = await tx.getTask(pend.uid);
      if (this.#held('parent') && (parent ?? null) !== (row?.parentUid ?? null)) await tx.updateTask(pend.uid, { parentUid: parent ?? null });
      if (!this.#held('blockedBy')) continue;
      const have = await tx.blockerUids(pend.uid);
      let changed = false;
      for (const h of have) if (!blockers.some((b) => b.uid === h)) changed = (await tx.removeDependency(pend.uid, h)) || changed;
      for (const b of blockers) if (!have.includes(b.uid)) edges.push({ taskUid: pend.uid, blockerUid: b.uid, at: b.at ?? this.#now, existing: true });
      if (changed || blockers.some((b) => !have.includes(b.uid))) touched.push(pend.uid);
    }
    if (this.#write) {
      if (edges.length) {
        // As add_dependency does: the graph's writers go one at a time, so no cycle closes through another's edges meanwhile.
        await tx.exclusive('graph');
        const safe = await withoutCycles(
          edges,
          fresh,
          (uid) => tx.blockerUids(uid),
          (cycle, e) => this.#cycleWarnings.push({ cycle, at: where.get(e.taskUid) ?? '' }),
        );
        for (const e of safe) if (e.existing) await tx.addDependency(e.taskUid, e.blockerUid, e.at);
        await tx.transfer.addDependencies(safe.filter((e) => !e.existing));
        await this.#warnCycles();
      }
      await this.#batch.finish();
      for (const uid of this.#updated) touched.push(...(await tx.dependentUids(uid)));
      for (let i = 0; i < touched.length; i += 500) await tx.refreshOpenBlockers(touched.slice(i, i + 500));
      for (const p of this.#projects.values()) if (p.maxSeq) await tx.transfer.raiseNextSeq(p.row.uid, p.maxSeq + 1);
      // Last, so the feed counter is held from here to the commit only (see #later).
      if (this.#later.length) {
        const first = await tx.transfer.reserveEventSeqs(this.#later.length);
        await tx.transfer.insertEventsWithSeq(this.#later.map((e, i) => ({ ...e, seq: first + i })));
      }
    }
    return this.report;
  }
}
