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

export async function childUids(db: Q, uid: string): Promise<string[]> {
  return (await childUidsOf.all(db, [uid])).map((r) => r.uid);
}

export async function addDependency(db: Q, taskUid: string, blockerUid: string, at: string): Promise<boolean> {
  const r = await db
    .insertInto('dependencies')
    .values({ task_uid: taskUid, blocker_uid: blockerUid, created_at: at })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
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
export async function addChecklist(db: Q, uid: string, items: ChecklistItem[]): Promise<void> {
  if (items.length) {
    await db
      .insertInto('checklist_items')
      .values(items.map((i, idx) => ({ task_uid: uid, idx, text: i.text, checked: i.checked ? 1 : 0 })))
      .execute();
  }
}

export async function replaceChecklist(db: Q, uid: string, items: ChecklistItem[]): Promise<void> {
  await db.deleteFrom('checklist_items').where('task_uid', '=', uid).execute();
  await addChecklist(db, uid, items);
  const done = items.filter((i) => i.checked).length;
  await db.updateTable('tasks').set({ checklist_done: done, checklist_total: items.length, rev: BUMP }).where('uid', '=', uid).execute();
}

export async function getComments(db: Q, uid: string): Promise<Comment[]> {
  const rows = await commentsOf.all(db, [uid]);
  return rows.map((r) => ({ id: r.id, author: r.author, kind: r.kind as CommentKind, body: r.body, createdAt: r.created_at }));
}

export async function addComment(db: Q, uid: string, c: { id: string; author: string; kind: CommentKind; body: string; createdAt: string }): Promise<void> {
  await db.insertInto('comments').values({ id: c.id, task_uid: uid, author: c.author, kind: c.kind, body: c.body, created_at: c.createdAt }).execute();
}
