/**
 * `cairn db copy`: a whole workspace, row for row, from one engine to another (SQLite file ⇄
 * PostgreSQL). Everything keeps its identity: ids, keys, task numbers, event numbers, versions,
 * tokens (their hashes). The relation columns and label_order are rebuilt by the target's own
 * triggers as rows arrive, and its search index once at the end. The source is read in one
 * snapshot (REPEATABLE READ on PostgreSQL), so a server may keep writing while it runs, and the
 * target is written in one transaction: a copy that fails leaves the target as it was.
 */
import { Kysely, sql } from 'kysely';
import { CairnError } from '../core/errors.js';
import type { DB } from './schema.js';
import { isPostgresUrl, redact } from './postgres/url.js';

/** Tables in the order rows may arrive (what a row refers to comes first), each with the key that pages it. */
const TABLES: ReadonlyArray<{ name: keyof DB; key: string[] }> = [
  { name: 'projects', key: ['uid'] },
  { name: 'statuses', key: ['project_uid', 'name'] },
  { name: 'tasks', key: ['num'] },
  { name: 'task_labels', key: ['task_uid', 'label'] },
  { name: 'dependencies', key: ['task_uid', 'blocker_uid'] },
  { name: 'checklist_items', key: ['task_uid', 'idx'] },
  { name: 'comments', key: ['id'] },
  { name: 'events', key: ['seq'] },
  { name: 'api_tokens', key: ['id'] },
  { name: 'idempotency_keys', key: ['key'] },
];
const PAGE = 500;

interface Side {
  db: Kysely<DB>;
  engine: 'sqlite' | 'postgres';
  location: string;
  close(): Promise<void>;
}

async function open(target: string): Promise<Side> {
  if (isPostgresUrl(target)) {
    const { parsePostgresUrl, openPool } = await import('./postgres/connection.js');
    const { cairnPostgresDialect } = await import('./postgres/engine-sql.js');
    const { migratePostgres } = await import('./postgres/migrate.js');
    const t = parsePostgresUrl(target);
    const pool = openPool(t, 2);
    await migratePostgres(pool, t.schema, t.display);
    const db = new Kysely<DB>({ dialect: cairnPostgresDialect(pool) });
    return { db, engine: 'postgres', location: t.display, close: () => db.destroy() };
  }
  const { openSqliteFile } = await import('./sqlite/open.js');
  const { cairnSqliteDialect, Connection } = await import('./sqlite/driver.js');
  const db = new Kysely<DB>({ dialect: cairnSqliteDialect(new Connection(openSqliteFile(target))) });
  return { db, engine: 'sqlite', location: target, close: () => db.destroy() };
}

export interface CopyReport {
  from: string;
  to: string;
  rows: Record<string, number>;
}

/** Copies the workspace at `from` into the empty workspace at `to` (a file path or a postgres:// URL). */
export async function copyWorkspace(from: string, to: string, onProgress?: (table: string, rows: number) => void): Promise<CopyReport> {
  try {
    return await copy(from, to, onProgress);
  } catch (err) {
    // A server that is down, a refused login, a full disk: named as the stores name them.
    const { translatePgError } = await import('./postgres/pg-errors.js');
    const { translateSqliteError } = await import('./sqlite/sqlite-errors.js');
    throw translatePgError(err, redact(isPostgresUrl(to) && !isPostgresUrl(from) ? to : from)) ?? translateSqliteError(err, isPostgresUrl(to) ? from : to) ?? err;
  }
}

async function copy(from: string, to: string, onProgress?: (table: string, rows: number) => void): Promise<CopyReport> {
  if (from === to) throw new CairnError('VALIDATION_ERROR', 'The source and the target are the same workspace; nothing was copied.', { suggestions: ['Pass another --to'] });
  const source = await open(from);
  try {
    const target = await open(to);
    try {
      const rows: Record<string, number> = {};
      // One snapshot of a live source: PostgreSQL's default (READ COMMITTED) sees each statement's own
      // moment, so a task made between two tables' reads would arrive as an edge without its task.
      // SQLite's read transaction is one snapshot already (WAL).
      const read = source.db.transaction().setAccessMode('read only');
      await (source.engine === 'postgres' ? read.setIsolationLevel('repeatable read') : read).execute(async (src) => {
        await target.db.transaction().execute(async (dst) => {
          await assertEmpty(dst, target.location);
          for (const t of TABLES) rows[t.name] = await copyTable(src, dst, t, target.engine, (n) => onProgress?.(t.name, n));
          await finish(dst, target.engine);
        });
      });
      return { from: source.location, to: target.location, rows };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

async function assertEmpty(db: Kysely<DB>, location: string): Promise<void> {
  const r = await sql<{ n: number }>`SELECT (SELECT count(*) FROM projects) + (SELECT count(*) FROM events) + (SELECT count(*) FROM api_tokens) AS n`.execute(db);
  if (Number(r.rows[0]!.n) > 0) {
    throw new CairnError('VALIDATION_ERROR', `The target ${redact(location)} already holds a workspace (projects, events or tokens); a copy goes into an empty one. Nothing was copied.`, {
      suggestions: ['Name a new file, or a new schema with ?schema=NAME in the URL', 'To merge workspaces, use cairn export and cairn import'],
    });
  }
}

async function copyTable(src: Kysely<DB>, dst: Kysely<DB>, t: (typeof TABLES)[number], engine: Side['engine'], progress: (n: number) => void): Promise<number> {
  const a = src as Kysely<any>;
  const b = dst as Kysely<any>;
  let copied = 0;
  // A task's parent may come after it: parents are set once every task is in.
  const parents: Array<{ uid: string; parent_uid: string }> = [];
  for (let after: unknown[] | undefined; ; ) {
    let q = a.selectFrom(t.name).selectAll();
    for (const k of t.key) q = q.orderBy(k);
    if (after) q = q.where(sql.raw(`(${t.key.join(', ')})`), '>', sql`(${sql.join(after)})`);
    const page = (await q.limit(PAGE).execute()) as Array<Record<string, unknown>>;
    if (page.length === 0) break;
    const values = page.map((r) => {
      const row = { ...r };
      if (t.name === 'tasks' && row.parent_uid) {
        parents.push({ uid: row.uid as string, parent_uid: row.parent_uid as string });
        row.parent_uid = null;
        row.parent_id = null;
      }
      return row;
    });
    await b.insertInto(t.name).values(values).execute();
    copied += page.length;
    progress(copied);
    const last = page[page.length - 1]!;
    after = t.key.map((k) => last[k]);
  }
  for (const p of parents) await b.updateTable('tasks').set({ parent_uid: p.parent_uid }).where('uid', '=', p.uid).execute();
  if (t.name === 'tasks' && engine === 'postgres' && copied > 0) {
    // Explicit numbers leave the identity behind: new tasks continue after the copied ones.
    await sql`SELECT setval(pg_get_serial_sequence('tasks', 'num'), (SELECT max(num) FROM tasks))`.execute(b);
  }
  return copied;
}

/** The target's search index, built once from the copied rows. */
async function finish(db: Kysely<DB>, engine: Side['engine']): Promise<void> {
  if (engine === 'postgres') {
    const { rebuildSearchIndex } = await import('./postgres/search.js');
    await rebuildSearchIndex(db);
    return;
  }
  const { SEARCH_INSERT_SQL, SEARCH_ROW_SQL } = await import('./sqlite/search.js');
  await sql`DELETE FROM task_search`.execute(db);
  await sql.raw(`${SEARCH_INSERT_SQL} ${SEARCH_ROW_SQL}`).execute(db);
}
