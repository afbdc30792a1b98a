/** Helpers for the core suite: error assertions, an injectable clock, full-store snapshots, integrity checks. */
import { Database } from '../../src/store/sqlite/native.js';
import { expect } from 'vitest';
import { isPostgresUrl, openRaw } from './raw-db.js';
import { CairnError, type ActivityEvent, type Cairn } from '../../src/index.js';

/** Awaits `p`, expects a CairnError with `code`, and returns it for further checks. */
export async function expectCode(p: Promise<unknown>, code: string): Promise<CairnError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${code}, but the call succeeded`).toBeInstanceOf(CairnError);
  const e = caught as CairnError;
  expect(e.code, e.message).toBe(code);
  expect(e.message.length).toBeGreaterThan(10);
  return e;
}

/** A clock tests move by hand. */
export function manualClock(start = '2026-01-01T00:00:00.000Z') {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set(iso: string) {
      t = new Date(iso).getTime();
    },
    advance(ms: number) {
      t += ms;
    },
  };
}

/** Raw call for deliberately wrong arguments (bypasses the typed signature). */
export function rawCall(c: Cairn, op: string, args: unknown): Promise<unknown> {
  return (c.call as (name: string, args: unknown) => Promise<unknown>)(op, args);
}

/** Every event in the log (pages through changes_since). */
export async function allEvents(c: Cairn) {
  const out: ActivityEvent[] = [];
  let since = 0;
  for (;;) {
    const page = await c.call('changes_since', { since, limit: 1000 });
    out.push(...page.events);
    if (!page.hasMore) return out;
    since = page.lastSeq;
  }
}

/** Every task (open, done, archived) in id order, following cursors. */
export async function allTasks(c: Cairn, extra: Record<string, unknown> = {}) {
  const tasks = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await c.call('list_tasks', { includeDone: true, includeArchived: true, sort: 'id', limit: 200, ...extra, ...(cursor ? { cursor } : {}) } as never);
    tasks.push(...page.tasks);
    if (!page.nextCursor) return tasks;
    cursor = page.nextCursor;
  }
}

/** Everything a user can observe, for "nothing was written" checks. */
export async function snapshot(c: Cairn) {
  const [projects, live, deleted, events] = await Promise.all([c.call('list_projects', { includeArchived: true }), allTasks(c), allTasks(c, { deleted: true }), allEvents(c)]);
  const full = await Promise.all(live.map((t) => c.call('get_task', { id: t.id }).then((r) => r.task)));
  return { projects: projects.projects, tasks: full, deleted, eventCount: events.length, lastSeq: events.at(-1)?.seq ?? 0 };
}

/**
 * The workspace's database is sound, checked through a separate read-only connection: 'ok', or what
 * is wrong. SQLite: PRAGMA integrity_check on the file. PostgreSQL has no such pragma (the server
 * keeps its own pages sound): every reference between Cairn's rows is checked instead — each task's
 * project and parent, each label, dependency, checklist item and comment's task, each status's
 * project — and the tables must be readable.
 */
export async function integrityCheck(db: string): Promise<string> {
  if (!isPostgresUrl(db)) {
    const file = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return String(file.pragma('integrity_check', { simple: true }));
    } finally {
      file.close();
    }
  }
  const raw = await openRaw(db, { readonly: true });
  try {
    const orphans: Array<[string, string]> = [
      ['tasks.project_uid', 'SELECT count(*) FROM tasks t WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.uid = t.project_uid)'],
      ['tasks.parent_uid', 'SELECT count(*) FROM tasks t WHERE t.parent_uid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tasks p WHERE p.uid = t.parent_uid)'],
      ['statuses.project_uid', 'SELECT count(*) FROM statuses s WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.uid = s.project_uid)'],
      ['task_labels.task_uid', 'SELECT count(*) FROM task_labels l WHERE NOT EXISTS (SELECT 1 FROM tasks t WHERE t.uid = l.task_uid)'],
      ['dependencies.task_uid', 'SELECT count(*) FROM dependencies d WHERE NOT EXISTS (SELECT 1 FROM tasks t WHERE t.uid = d.task_uid)'],
      ['dependencies.blocker_uid', 'SELECT count(*) FROM dependencies d WHERE NOT EXISTS (SELECT 1 FROM tasks t WHERE t.uid = d.blocker_uid)'],
      ['checklist_items.task_uid', 'SELECT count(*) FROM checklist_items c WHERE NOT EXISTS (SELECT 1 FROM tasks t WHERE t.uid = c.task_uid)'],
      ['comments.task_uid', 'SELECT count(*) FROM comments c WHERE NOT EXISTS (SELECT 1 FROM tasks t WHERE t.uid = c.task_uid)'],
    ];
    const problems: string[] = [];
    for (const [what, sql] of orphans) {
      const n = await raw.value<number>(sql);
      if (n !== 0) problems.push(`${n} row(s) whose ${what} names no row`);
    }
    return problems.length ? problems.join('; ') : 'ok';
  } finally {
    await raw.close();
  }
}
