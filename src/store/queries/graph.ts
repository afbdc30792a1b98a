/** Relations of tasks: dependency edges, hierarchy, labels, checklist items and comments (the rows' stored relation columns follow these tables by trigger). */
import type { Kysely } from 'kysely';
import type { ChecklistItem, Comment, CommentKind } from '../../core/model/task.js';
import type { DB } from '../schema.js';
import { prepared, slots } from './prepared.js';
import { BUMP } from './rows.js';

type Q = Kysely<DB>;

const blockerUidsOf = prepared((db, p) => db.selectFrom('dependencies').select('blocker_uid').where('task_uid', '=', p(0)));
const dependentUidsOf = prepared((db, p) => db.selectFrom('dependencies').select('task_uid').where('blocker_uid', '=', p(0)));
const childUidsOf = prepared((db, p) => db.selectFrom('tasks').select('uid').where('parent_uid', '=', p(0)).where('deleted_at', 'is', null));

export async function blockerUids(db: Q, uid: string): Promise<string[]> {
  return (await blockerUidsOf.all(db, [uid])).map((r) => r.blocker_uid);
}

export async function dependentUids(db: Q, uid: string): Promise<string[]> {
  return (await dependentUidsOf.all(db, [uid])).map((r) => r.task_uid);
}

const parentUidOfTask = prepared((db, p) => db.selectFrom('tasks').select('parent_uid').where('uid', '=', p(0)));

export async function parentUid(db: Q, uid: string): Promise<string | null> {
  const [r] = await parentUidOfTask.all(db, [uid]);
  return r?.parent_uid ?? null;
}

export async function childUids(db: Q, uid: string): Promise<string[]> {
  return (await childUidsOf.all(db, [uid])).map((r) => r.uid);
}

const insertDependency = prepared((db, p) =>
  db
    .insertInto('dependencies')
    .values({ task_uid: p(0), blocker_uid: p(1), created_at: p(2) })
    .onConflict((oc) => oc.doNothing()),
);

export async function addDependency(db: Q, taskUid: string, blockerUid: string, at: string): Promise<boolean> {
  const r = await insertDependency.run(db, [taskUid, blockerUid, at]);
  return Number(r.numAffectedRows ?? 0n) === 1;
}

export async function removeDependency(db: Q, taskUid: string, blockerUid: string): Promise<boolean> {
  const r = await db.deleteFrom('dependencies').where('task_uid', '=', taskUid).where('blocker_uid', '=', blockerUid).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

const clearLabels = prepared((db, p) => db.deleteFrom('task_labels').where('task_uid', '=', p(0)));
const insertLabels = prepared((db, p, n: number) => db.insertInto('task_labels').values(slots(p, n, 1).map((label) => ({ task_uid: p(0), label }))));

export async function setLabels(db: Q, uid: string, labels: string[]): Promise<void> {
  await clearLabels.run(db, [uid]);
  await addLabels(db, uid, labels);
}

/** Labels for a task that has none of them yet (a new task; setLabels after its delete). */
export async function addLabels(db: Q, uid: string, labels: string[]): Promise<void> {
  if (labels.length) await insertLabels.run(db, [uid, ...labels], labels.length);
}

export async function labelCounts(db: Q, projectUids: string[] | null): Promise<Array<{ label: string; count: number }>> {
  let q = db
    .selectFrom('task_labels as l')
    .innerJoin('tasks as t', 't.uid', 'l.task_uid')
    .select(['l.label', (eb) => eb.fn.countAll<number>().as('n')])
    .where('t.deleted_at', 'is', null)
    .groupBy('l.label')
    .orderBy('n', 'desc')
    .orderBy('l.label');
  if (projectUids) q = q.where('t.project_uid', 'in', projectUids.length ? projectUids : ['']);
  return (await q.execute()).map((r) => ({ label: r.label, count: Number(r.n) }));
}

const checklistOf = prepared((db, p) => db.selectFrom('checklist_items').select(['idx', 'text', 'checked']).where('task_uid', '=', p(0)).orderBy('idx'));
const commentsOf = prepared((db, p) => db.selectFrom('comments').selectAll().where('task_uid', '=', p(0)).orderBy('created_at').orderBy('id'));

export async function getChecklist(db: Q, uid: string): Promise<ChecklistItem[]> {
  const rows = await checklistOf.all(db, [uid]);
  return rows.map((r) => ({ index: r.idx, text: r.text, checked: r.checked === 1 }));
}

/** Items for a task that has none (a new task; replaceChecklist after its delete). The caller keeps the row's counts. */
// Arguments: the task's uid, then (text, checked) per item; one compiled shape per item count.
const insertChecklist = prepared((db, p, n: number) =>
  db.insertInto('checklist_items').values(Array.from({ length: n }, (_, idx) => ({ task_uid: p(0), idx, text: p(1 + 2 * idx), checked: p(2 + 2 * idx) }))),
);

export async function addChecklist(db: Q, uid: string, items: ChecklistItem[]): Promise<void> {
  if (items.length) await insertChecklist.run(db, [uid, ...items.flatMap((i) => [i.text, i.checked ? 1 : 0])], items.length);
}

const clearChecklist = prepared((db, p) => db.deleteFrom('checklist_items').where('task_uid', '=', p(0)));
const setChecklistCounts = prepared((db, p) =>
  db
    .updateTable('tasks')
    .set({ checklist_done: p(0), checklist_total: p(1), rev: BUMP })
    .where('uid', '=', p(2)),
);

export async function replaceChecklist(db: Q, uid: string, items: ChecklistItem[]): Promise<void> {
  await clearChecklist.run(db, [uid]);
  await addChecklist(db, uid, items);
  await setChecklistCounts.run(db, [items.filter((i) => i.checked).length, items.length, uid]);
}

export async function getComments(db: Q, uid: string): Promise<Comment[]> {
  const rows = await commentsOf.all(db, [uid]);
  return rows.map((r) => ({ id: r.id, author: r.author, kind: r.kind as CommentKind, body: r.body, createdAt: r.created_at }));
}

const insertComment = prepared((db, p) => db.insertInto('comments').values({ id: p(0), task_uid: p(1), author: p(2), kind: p(3), body: p(4), created_at: p(5) }));

export async function addComment(db: Q, uid: string, c: { id: string; author: string; kind: CommentKind; body: string; createdAt: string }): Promise<void> {
  await insertComment.run(db, [c.id, uid, c.author, c.kind, c.body, c.createdAt]);
}
