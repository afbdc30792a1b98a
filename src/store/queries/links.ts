/** The link tables (core/link-port.ts) over any Kysely database. */
import type { Kysely } from 'kysely';
import type { LinkItem, LinkKind, LinkRow, LinkState, LinkTx, RawEvent } from '../../core/link-port.js';
import type { DB } from '../schema.js';
import { prepared } from './prepared.js';

const readOnlyItem = prepared((db, p) =>
  db.selectFrom('link_items as i').innerJoin('links as l', 'l.id', 'i.link_id').select('i.task_uid').where('i.task_uid', '=', p(0)).where('l.writable', '=', 0).limit(1),
);

/** Rows per statement when many are written at once (SQLite allows 32,766 variables). */
const CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

const parseState = (text: string): LinkState => {
  const s = JSON.parse(text) as Partial<LinkState>;
  return { ...s, warnings: s.warnings ?? [], lost: s.lost ?? [] };
};

export class KyselyLinks implements LinkTx {
  constructor(private readonly db: Kysely<DB>) {}

  async eventsSince(seq: number): Promise<RawEvent[]> {
    const rows = await this.db.selectFrom('events').select(['seq', 'project_uid', 'task_uid', 'type', 'changes']).where('seq', '>', seq).orderBy('seq').execute();
    return rows.map((r) => ({ seq: r.seq, projectUid: r.project_uid, taskUid: r.task_uid, type: r.type, changes: JSON.parse(r.changes) as RawEvent['changes'] }));
  }

  async list(): Promise<LinkRow[]> {
    const rows = await this.db.selectFrom('links').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map((r) => ({ id: r.id, kind: r.kind as LinkKind, path: r.path, writable: r.writable === 1, state: parseState(r.state), createdAt: r.created_at }));
  }

  async insert(row: LinkRow): Promise<void> {
    await this.db
      .insertInto('links')
      .values({ id: row.id, kind: row.kind, path: row.path, writable: row.writable ? 1 : 0, state: JSON.stringify(row.state), created_at: row.createdAt })
      .execute();
  }

  async update(id: string, patch: { writable?: boolean; state?: LinkState }): Promise<void> {
    const set: { writable?: number; state?: string } = {};
    if (patch.writable !== undefined) set.writable = patch.writable ? 1 : 0;
    if (patch.state !== undefined) set.state = JSON.stringify(patch.state);
    if (Object.keys(set).length) await this.db.updateTable('links').set(set).where('id', '=', id).execute();
  }

  async remove(id: string): Promise<void> {
    // Children first: PostgreSQL cascades, but a SQLite connection may run without foreign keys.
    await this.db.deleteFrom('link_files').where('link_id', '=', id).execute();
    await this.db.deleteFrom('link_items').where('link_id', '=', id).execute();
    await this.db.deleteFrom('link_projects').where('link_id', '=', id).execute();
    await this.db.deleteFrom('links').where('id', '=', id).execute();
  }

  async projects(linkId: string): Promise<Array<{ projectUid: string; ref: string }>> {
    const rows = await this.db.selectFrom('link_projects').select(['project_uid', 'ref']).where('link_id', '=', linkId).orderBy('ref').execute();
    return rows.map((r) => ({ projectUid: r.project_uid, ref: r.ref }));
  }

  async setProject(linkId: string, projectUid: string, ref: string): Promise<void> {
    await this.db
      .insertInto('link_projects')
      .values({ project_uid: projectUid, link_id: linkId, ref })
      .onConflict((oc) => oc.column('project_uid').doUpdateSet({ link_id: linkId, ref }))
      .execute();
  }

  async items(linkId: string, only?: { sourceIds: string[]; files: string[] }): Promise<LinkItem[]> {
    const q = this.db.selectFrom('link_items').select(['source_id', 'task_uid', 'file', 'hash']).where('link_id', '=', linkId);
    const found = new Map<string, { source_id: string; task_uid: string; file: string | null; hash: string }>();
    if (!only) for (const r of await q.execute()) found.set(r.source_id, r);
    else {
      for (const part of chunks(only.sourceIds)) for (const r of await q.where('source_id', 'in', part).execute()) found.set(r.source_id, r);
      for (const part of chunks(only.files)) for (const r of await q.where('file', 'in', part).execute()) found.set(r.source_id, r);
    }
    return [...found.values()].map((r) => ({ sourceId: r.source_id, taskUid: r.task_uid, file: r.file, hash: r.hash }));
  }

  async putItems(linkId: string, items: LinkItem[]): Promise<void> {
    for (const part of chunks(items)) {
      await this.db
        .insertInto('link_items')
        .values(part.map((i) => ({ link_id: linkId, source_id: i.sourceId, task_uid: i.taskUid, file: i.file, hash: i.hash })))
        .onConflict((oc) => oc.columns(['link_id', 'source_id']).doUpdateSet((eb) => ({ task_uid: eb.ref('excluded.task_uid'), file: eb.ref('excluded.file'), hash: eb.ref('excluded.hash') })))
        .execute();
    }
  }

  async removeItems(linkId: string, sourceIds: string[]): Promise<void> {
    for (const part of chunks(sourceIds)) await this.db.deleteFrom('link_items').where('link_id', '=', linkId).where('source_id', 'in', part).execute();
  }

  async itemsOfTasks(taskUids: string[]): Promise<Array<LinkItem & { linkId: string }>> {
    const out: Array<LinkItem & { linkId: string }> = [];
    for (const part of chunks(taskUids)) {
      const rows = await this.db.selectFrom('link_items').select(['link_id', 'source_id', 'task_uid', 'file', 'hash']).where('task_uid', 'in', part).execute();
      for (const r of rows) out.push({ linkId: r.link_id, sourceId: r.source_id, taskUid: r.task_uid, file: r.file, hash: r.hash });
    }
    return out;
  }

  async inReadOnlyLink(taskUid: string): Promise<boolean> {
    // Asked by every claim and release: compiled once.
    return (await readOnlyItem.all(this.db, [taskUid])).length > 0;
  }

  async tasksBySourceId(sourceId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('link_items').select('task_uid').where('source_id', '=', sourceId).execute();
    return rows.map((r) => r.task_uid);
  }

  async files(linkId: string): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('link_files').select(['file', 'stamp']).where('link_id', '=', linkId).execute();
    return new Map(rows.map((r) => [r.file, r.stamp]));
  }

  async putFiles(linkId: string, files: ReadonlyMap<string, string>): Promise<void> {
    for (const part of chunks([...files])) {
      await this.db
        .insertInto('link_files')
        .values(part.map(([file, stamp]) => ({ link_id: linkId, file, stamp })))
        .onConflict((oc) => oc.columns(['link_id', 'file']).doUpdateSet((eb) => ({ stamp: eb.ref('excluded.stamp') })))
        .execute();
    }
  }

  async removeFiles(linkId: string, files: string[]): Promise<void> {
    for (const part of chunks(files)) await this.db.deleteFrom('link_files').where('link_id', '=', linkId).where('file', 'in', part).execute();
  }
}
