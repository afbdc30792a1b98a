/**
 * The TransferTx port over any Kysely database: pages of whole tasks with their relations and
 * history in five queries per page (export), and the raw and bulk writes a lossless import needs.
 */
import type { Kysely } from 'kysely';
import type { CommentKind } from '../../core/model/task.js';
import type { TaskRow } from '../../core/ports.js';
import type { DumpQuery, NewTask, StoredEvent, TaskDump, TransferTx } from '../../core/transfer-port.js';
import type { DB } from '../schema.js';
import type { SearchEngine } from './search-engine.js';
import { packedSummary, unpackSummary } from './rows.js';
import { manyRows } from './many-rows.js';
import { newTaskColumns, TASK_COLUMNS } from './tasks.js';

type Q = Kysely<DB>;

const EVENT_COLUMNS = ['seq', 'at', 'actor', 'via', 'project_uid', 'task_uid', 'type', 'changes'] as const;

function toEvent(r: { seq: number; at: string; actor: string; via: string | null; project_uid: string | null; task_uid: string | null; type: string; changes: string }): StoredEvent {
  return { seq: r.seq, at: r.at, actor: r.actor, via: r.via, projectUid: r.project_uid, taskUid: r.task_uid, type: r.type, changes: r.changes };
}

/** Groups rows by a key, keeping their order. */
function groupBy<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

async function dumpTasks(db: Q, q: DumpQuery): Promise<TaskDump[]> {
  // The summary columns packed into one JSON text by the engine (rows.ts: the binding's cost is per value), the long ones beside it.
  let s = db
    .selectFrom('tasks')
    .innerJoin('projects as p', 'p.uid', 'tasks.project_uid')
    .select([
      packedSummary(db).as('packed'),
      'tasks.description',
      'tasks.links',
      'tasks.anchors',
      'tasks.close_reason',
      'tasks.origin',
      'tasks.document_path',
      'tasks.completed_at',
      'tasks.claim_generation',
      'tasks.claim_where',
      'tasks.touches',
      'tasks.evidence',
      'tasks.checkpoint',
    ])
    .where('tasks.project_uid', '=', q.projectUid)
    .where('tasks.seq', '>', q.afterSeq)
    .orderBy('tasks.seq')
    .limit(q.limit);
  if (!q.includeArchived) s = s.where('tasks.archived_at', 'is', null);
  if (q.sinceSeq !== undefined) {
    const since = q.sinceSeq;
    s = s.where((eb) => eb.exists(eb.selectFrom('events as e').select('e.seq').whereRef('e.task_uid', '=', 'tasks.uid').where('e.seq', '>', since)));
  }
  const rows: TaskRow[] = (await s.execute()).map((r) =>
    Object.assign(unpackSummary(r.packed), {
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
    }),
  );
  if (rows.length === 0) return [];
  const uids = rows.map((r) => r.uid);
  const [items, comments, edges, events] = await Promise.all([
    db.selectFrom('checklist_items').select(['task_uid', 'idx', 'text', 'checked']).where('task_uid', 'in', uids).orderBy('task_uid').orderBy('idx').execute(),
    db.selectFrom('comments').selectAll().where('task_uid', 'in', uids).orderBy('created_at').orderBy('id').execute(),
    db
      .selectFrom('dependencies as d')
      .innerJoin('tasks as b', 'b.uid', 'd.blocker_uid')
      .innerJoin('projects as p', 'p.uid', 'b.project_uid')
      .select(['d.task_uid', 'd.blocker_uid', 'd.created_at', 'p.key', 'b.seq'])
      .where('d.task_uid', 'in', uids)
      .orderBy('d.created_at')
      .orderBy('d.blocker_uid')
      .execute(),
    (() => {
      let e = db.selectFrom('events').select(EVENT_COLUMNS).where('task_uid', 'in', uids).orderBy('seq');
      if (q.sinceSeq !== undefined) e = e.where('seq', '>', q.sinceSeq);
      return e.execute();
    })(),
  ]);
  const itemsBy = groupBy(items, (r) => r.task_uid);
  const commentsBy = groupBy(comments, (r) => r.task_uid);
  const edgesBy = groupBy(edges, (r) => r.task_uid);
  const eventsBy = groupBy(events, (r) => r.task_uid!);
  return rows.map((row) => ({
    row,
    checklist: (itemsBy.get(row.uid) ?? []).map((i) => ({ index: i.idx, text: i.text, checked: i.checked === 1 })),
    comments: (commentsBy.get(row.uid) ?? []).map((c) => ({ id: c.id, author: c.author, kind: c.kind as CommentKind, body: c.body, createdAt: c.created_at })),
    blockers: (edgesBy.get(row.uid) ?? []).map((d) => ({ blockerUid: d.blocker_uid, blockerId: `${d.key}-${d.seq}`, createdAt: d.created_at })),
    events: (eventsBy.get(row.uid) ?? []).map(toEvent),
  }));
}

async function projectEvents(db: Q, projectUid: string, sinceSeq?: number): Promise<StoredEvent[]> {
  let q = db
    .selectFrom('events')
    .select(EVENT_COLUMNS)
    .where('project_uid', '=', projectUid)
    .where((eb) => eb.or([eb('task_uid', 'is', null), eb.not(eb.exists(eb.selectFrom('tasks as t').select('t.uid').whereRef('t.uid', '=', 'events.task_uid')))]))
    .orderBy('seq');
  if (sinceSeq !== undefined) q = q.where('seq', '>', sinceSeq);
  return (await q.execute()).map(toEvent);
}

/** Task columns stored as the row holds them: the TaskRow field of the same name in camelCase. */
const insertTaskRows = manyRows('tasks', TASK_COLUMNS);

/** A new task's values in TASK_COLUMNS order, as insertTask writes them. */
function taskValues(t: NewTask): unknown[] {
  const values = newTaskColumns(t.row, t.checklist);
  return TASK_COLUMNS.map((c) => values[c]);
}

const insertLabels = manyRows('task_labels', ['task_uid', 'label']);
const insertItems = manyRows('checklist_items', ['task_uid', 'idx', 'text', 'checked']);
const insertComments = manyRows('comments', ['id', 'task_uid', 'author', 'kind', 'body', 'created_at']);
const insertEvents = manyRows('events', EVENT_COLUMNS);
const insertEdges = manyRows('dependencies', ['task_uid', 'blocker_uid', 'created_at'], { ignoreExisting: true });

async function insertTasks(db: Q, tasks: NewTask[]): Promise<void> {
  // Parents are earlier in the list: each row goes in before the next, so the parent trigger finds them.
  await insertTaskRows(db, tasks.map(taskValues));
  await insertLabels(
    db,
    tasks.flatMap((t) => t.row.labels.map((l) => [t.row.uid, l])),
  );
  await insertItems(
    db,
    tasks.flatMap((t) => t.checklist.map((i) => [t.row.uid, i.index, i.text, i.checked ? 1 : 0])),
  );
  await insertComments(
    db,
    tasks.flatMap((t) => t.comments.map((c) => [c.id, t.row.uid, c.author, c.kind, c.body, c.createdAt])),
  );
}

export class KyselyTransfer implements TransferTx {
  constructor(
    private readonly db: Q,
    private readonly engine: SearchEngine,
  ) {}

  insertTasks: TransferTx['insertTasks'] = (t) => insertTasks(this.db, t);
  insertEventsWithSeq: TransferTx['insertEventsWithSeq'] = (e) =>
    insertEvents(
      this.db,
      e.map((x) => [x.seq, x.at, x.actor, x.via, x.projectUid, x.taskUid, x.type, x.changes]),
    );
  addDependencies: TransferTx['addDependencies'] = (e) =>
    insertEdges(
      this.db,
      e.map((x) => [x.taskUid, x.blockerUid, x.at]),
    );

  // One writer at a time (SQLite): the log's end is this transaction's to extend; PostgreSQL overrides it (postgres/tx.ts).
  reserveEventSeqs: TransferTx['reserveEventSeqs'] = async () => {
    const r = await this.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('seq').as('last'))
      .executeTakeFirst();
    return Number(r?.last ?? 0) + 1;
  };

  async indexNewTasks(uids: string[]): Promise<void> {
    if (uids.length) await this.engine.indexNewTasks(this.db, uids);
  }

  dumpTasks: TransferTx['dumpTasks'] = (q) => dumpTasks(this.db, q);
  projectEvents: TransferTx['projectEvents'] = (p, s) => projectEvents(this.db, p, s);

  async nextSeq(projectUid: string): Promise<number> {
    const r = await this.db.selectFrom('projects').select('next_seq').where('uid', '=', projectUid).executeTakeFirst();
    return r?.next_seq ?? 1;
  }

  async raiseNextSeq(projectUid: string, nextSeq: number): Promise<void> {
    await this.db.updateTable('projects').set({ next_seq: nextSeq }).where('uid', '=', projectUid).where('next_seq', '<', nextSeq).execute();
  }

  async taskEvents(taskUid: string): Promise<StoredEvent[]> {
    return (await this.db.selectFrom('events').select(EVENT_COLUMNS).where('task_uid', '=', taskUid).orderBy('seq').execute()).map(toEvent);
  }

  async eventsOfType(projectUid: string, type: string): Promise<StoredEvent[]> {
    return (await this.db.selectFrom('events').select(EVENT_COLUMNS).where('project_uid', '=', projectUid).where('type', '=', type).orderBy('seq').execute()).map(toEvent);
  }

  async deleteComment(id: string): Promise<void> {
    await this.db.deleteFrom('comments').where('id', '=', id).execute();
  }
}
