/**
 * A pull: what a source's owner changed, applied to the workspace in one write transaction. Records
 * whose hash did not move are skipped; the others go through the importer (so a linked record
 * becomes a task exactly as an import would make it), touching only the fields the source holds.
 * Records gone from the files read are deleted, lanes whose order moved are reordered, and every
 * change is an event by the source's name, so live views and subscriptions see it like any write.
 */
import type { Context } from '../core/context.js';
import { nowIso } from '../core/context.js';
import type { LinkItem, LinkRow, LinkState, LostWrite, PushedWrite } from '../core/link-port.js';
import type { ProjectRow, Tx } from '../core/ports.js';
import { diff, record } from '../core/services/activity.js';
import { Importer } from '../core/services/import/apply.js';
import type { IncomingProject } from '../core/services/import/model.js';
import { commitTaskChange } from '../core/services/task-write.js';
import { changedFields, fingerprint, heldOfRecord, heldView } from './fingerprint.js';
import type { Held, LinkSource, SourceRead, SourceTask } from './source.js';

/** Each record's hash, for sources that hand the same object to every read while its row is unchanged. */
const hashes = new WeakMap<SourceTask, string>();

/** Fields an event names that are bookkeeping, not a change anyone made. */
const BOOKKEEPING = new Set(['category', 'completedAt', 'version', 'updatedAt', 'source', 'sourceId']);

/** Scalar held fields whose Cairn value is kept when the source shows it the same way (urgent read back as high). */
const KEEP_IF_SAME = ['title', 'description', 'priority', 'assignee', 'kind', 'closeReason', 'substatus'] as const;

export interface PullOutcome {
  /** The fields of each task the source changed, for the write that follows (links/conflicts.ts). */
  changed: Map<string, Set<string>>;
  applied: number;
}

/** A key no project has: the source's suggestion, else with a letter appended or replacing its last. */
async function freeKey(tx: Tx, key: string): Promise<string> {
  const candidates = [key, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').map((c) => (key.length < 10 ? key + c : key.slice(0, 9) + c))];
  for (const k of candidates) if (!(await tx.getProjectByKey(k))) return k;
  return candidates[candidates.length - 1]!;
}

/**
 * Name, description and archived flag of a linked project as the source now has them (a source that
 * holds its projects' fields: DevPlanner's _project.json); the statuses it added, for any source.
 */
async function followProject(tx: Tx, ctx: Context, uid: string, p: IncomingProject, source: LinkSource): Promise<void> {
  const row = await tx.getProjectByUid(uid);
  if (!row) return;
  if (p.statuses) {
    const have = await tx.getStatuses(uid);
    const added = p.statuses.filter((s) => !have.some((h) => h.name === s.name));
    if (added.length)
      await tx.replaceStatuses(
        uid,
        [...have, ...added].map((s, position) => ({ ...s, position })),
      );
  }
  if (!source.projectFields?.includes('name')) return;
  const wanted = { name: p.name, description: p.description, archivedAt: p.archivedAt && (row.archivedAt ?? p.archivedAt) };
  const changes = diff(row as unknown as Record<string, unknown>, wanted);
  if (Object.keys(changes).length) {
    await tx.updateProject(uid, { ...wanted, updatedAt: nowIso(ctx) });
    await record(tx, ctx, { projectUid: uid, taskUid: null, type: 'project.updated', changes });
  }
}

/** The record with Cairn's value kept in each field the source would show the same way. */
function keepCairnValues(source: LinkSource, t: SourceTask, current: Held): void {
  const incoming = heldOfRecord(t);
  for (const f of KEEP_IF_SAME) {
    if (!source.fields.includes(f) || incoming[f] === current[f]) continue;
    if (changedFields(source, incoming, { ...incoming, [f]: current[f] }).length === 0) (t as unknown as Record<string, unknown>)[f] = current[f];
  }
}

export async function applyPull(tx: Tx, ctx: Context, link: LinkRow, source: LinkSource, read: SourceRead): Promise<PullOutcome> {
  const since = await tx.lastSeq();
  // The row as stored now: another process's write may have added to its state since this one read it.
  const state = (await tx.links.list()).find((l) => l.id === link.id)?.state ?? link.state;
  const lost: LostWrite[] = [];
  // A read of some files needs only the records read and those that lived in the files it covered.
  const partial = source.isFolder && read.covered.size < 200 ? { sourceIds: read.tasks.map((t) => t.sourceId), files: [...read.covered] } : undefined;
  const items = new Map((await tx.links.items(link.id, partial)).map((i) => [i.sourceId, i]));
  const refs = new Map((await tx.links.projects(link.id)).map((p) => [p.ref, p.projectUid]));
  const bySource = new Map([...items].map(([sid, i]) => [sid, i.taskUid]));
  const importer = new Importer(tx, ctx, { source: link.kind, dryRun: false, link: { bySource, fields: new Set(source.fields) } });
  await importer.start();
  const projectUids = new Map<string, string>();
  for (const p of read.projects) {
    const uid = refs.get(p.ref);
    if (uid) {
      p.uid = uid;
      await followProject(tx, ctx, uid, p, source);
    } else if (link.state.project) {
      // `cairn link --project KEY`: the source's one project is that project, made when missing.
      const existing = await tx.getProjectByKey(link.state.project);
      p.key = link.state.project;
      if (existing) {
        p.uid = existing.uid;
        // The source's workflow joins the project's: its records keep their statuses.
        await followProject(tx, ctx, existing.uid, p, source);
      }
    } else {
      p.key = await freeKey(tx, p.key);
      // Rooted at the source's repository, unless a project is already: agents started there then work on it by default.
      if (!p.root && source.repository && !(await tx.listProjects(true)).some((x) => x.root === source.repository)) p.root = source.repository;
    }
    await importer.project(p);
    const row = importer.projectOf(p.ref);
    if (!row) continue;
    projectUids.set(p.ref, row.uid);
    if (!uid) await tx.links.setProject(link.id, row.uid, p.ref);
  }
  // Projects the read did not name (its records were unchanged) are still their records' projects.
  for (const [ref, uid] of refs) {
    if (projectUids.has(ref)) continue;
    const row = await tx.getProjectByUid(uid);
    if (!row) continue;
    await importer.project({
      type: 'project',
      at: { file: source.path },
      ref,
      uid,
      key: row.key,
      name: row.name,
      description: row.description,
      root: row.root,
      aliases: row.aliases,
      template: 'default',
      archivedAt: row.archivedAt,
    });
    projectUids.set(ref, uid);
  }

  const written: Array<{ sourceId: string; file: string | null; hash: string }> = [];
  /** Records new to the link or moved to another file (a card to another lane): their lane's order is followed. */
  const arrived = new Set<string>();
  const seen = new Set<string>();
  let applied = 0;
  for (const rec of read.tasks) {
    seen.add(rec.sourceId);
    let hash = hashes.get(rec);
    if (hash === undefined) hashes.set(rec, (hash = fingerprint(source, heldOfRecord(rec))));
    const item = items.get(rec.sourceId);
    if (!item || item.file !== rec.file) arrived.add(rec.sourceId);
    if (item && item.hash === hash) {
      if (item.file !== rec.file) written.push({ sourceId: rec.sourceId, file: rec.file, hash });
      continue;
    }
    // A copy: a source may hand the same record object to later reads (Castle's unchanged rows).
    const t = { ...rec };
    if (!projectUids.has(t.projectRef)) continue;
    const row = item ? await tx.getTask(item.taskUid) : undefined;
    if (item && !row) bySource.delete(t.sourceId);
    if (row)
      keepCairnValues(source, t, {
        ...heldOfRecord(t),
        title: row.title,
        description: row.description,
        priority: row.priority,
        assignee: row.assignee,
        kind: row.kind,
        closeReason: row.closeReason,
        substatus: row.substatus,
      });
    const erased = row && state.pushed ? lostWrite(source, state, t) : undefined;
    if (erased && row) {
      lost.push({ task: erased.task, at: erased.at, fields: Object.keys(erased.fields) });
      const changes = Object.fromEntries(Object.entries(erased.fields).map(([f, v]) => [f, { before: JSON.parse(v.ours) as unknown, after: JSON.parse(v.theirs) as unknown }]));
      await record(tx, ctx, { projectUid: row.projectUid, taskUid: row.uid, type: 'link.write_lost', changes });
    }
    await importer.task(t);
    written.push({ sourceId: t.sourceId, file: t.file, hash });
    applied++;
  }

  const gone: string[] = [];
  for (const [sid, item] of items) {
    if (seen.has(sid) || !read.covered.has(item.file ?? '')) continue;
    gone.push(sid);
    const row = await tx.getTask(item.taskUid);
    if (row && row.deletedAt === null) {
      await commitTaskChange(tx, ctx, row, { deletedAt: nowIso(ctx), claimedBy: null, claimExpiresAt: null }, 'task.deleted', { source: { before: null, after: link.kind } }, { anyActor: true });
      applied++;
    }
  }
  await importer.finish();
  await tx.links.removeItems(link.id, gone);
  const rows: LinkItem[] = [];
  for (const w of written) {
    const taskUid = bySource.get(w.sourceId);
    if (taskUid) rows.push({ sourceId: w.sourceId, taskUid, file: w.file, hash: w.hash });
  }
  await tx.links.putItems(link.id, rows);
  for (const o of read.orders) {
    // A card edited in place leaves its lane's order as it was: nothing to compare.
    if (!o.listed && !o.sourceIds.some((s) => arrived.has(s))) continue;
    const projectUid = projectUids.get(o.projectRef);
    if (!projectUid) continue;
    const lane = new Map((await tx.links.items(link.id, { sourceIds: o.sourceIds, files: [] })).map((i) => [i.sourceId, i.taskUid]));
    applied += await followOrder(
      tx,
      ctx,
      projectUid,
      o.status,
      o.sourceIds.map((s) => bySource.get(s) ?? lane.get(s)).filter((u): u is string => u !== undefined),
    );
  }
  await tx.links.update(link.id, {
    state: {
      ...state,
      warnings: read.warnings,
      syncedAt: nowIso(ctx),
      lost: [...state.lost, ...lost].slice(-20),
      // A write is watched until its record changes again: then it was either erased (reported above) or built on.
      ...(state.pushed ? { pushed: state.pushed.filter((p) => !written.some((w) => w.sourceId === p.sourceId)) } : {}),
    },
  });
  return { changed: await changedSince(tx, since), applied };
}

/**
 * A write Cairn made that the source's owner then erased: the record changed after it, and each
 * field it wrote is back to the value it replaced (Castle's app saved its older copy of the whole file).
 */
function lostWrite(source: LinkSource, state: LinkState, t: SourceTask): PushedWrite | undefined {
  const p = state.pushed?.find((x) => x.sourceId === t.sourceId);
  if (!p) return undefined;
  const now = heldView(source, heldOfRecord(t));
  const fields = Object.fromEntries(Object.entries(p.fields).filter(([f, v]) => JSON.stringify(now[f]) === v.theirs && v.theirs !== v.ours));
  return Object.keys(fields).length ? { ...p, fields } : undefined;
}

/**
 * Reorders a lane as the source orders it: its records first, in the source's order, then the
 * lane's other tasks as they were. Positions are renumbered only when the order moved.
 */
async function followOrder(tx: Tx, ctx: Context, projectUid: string, status: string, wanted: string[]): Promise<number> {
  const { rows } = await tx.listTasks({ projectUids: [projectUid], statuses: [status], includeDone: true }, 'position', 10_000, undefined, { count: false });
  const inLane = new Set(rows.map((r) => r.uid));
  const first = wanted.filter((u) => inLane.has(u));
  const firstSet = new Set(first);
  const order = [...first, ...rows.map((r) => r.uid).filter((u) => !firstSet.has(u))];
  if (order.every((u, i) => rows[i]!.uid === u)) return 0;
  let moved = 0;
  for (const [i, uid] of order.entries()) {
    const row = await tx.getTask(uid);
    if (!row || row.position === i + 1) continue;
    await commitTaskChange(tx, ctx, row, { position: i + 1 }, 'task.moved', {}, { anyActor: true });
    moved++;
  }
  return moved;
}

/** The fields each task's events changed after `since`, bookkeeping left out. */
async function changedSince(tx: Tx, since: number): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const e of await tx.links.eventsSince(since)) {
    if (!e.taskUid) continue;
    const fields = Object.keys(e.changes).filter((k) => !BOOKKEEPING.has(k));
    const set = out.get(e.taskUid) ?? new Set<string>();
    for (const f of fields) set.add(f);
    out.set(e.taskUid, set);
  }
  return out;
}

export type { ProjectRow };
