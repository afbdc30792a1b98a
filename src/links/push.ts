/**
 * A push: what a write changed in linked projects, written back to each source inside the write's
 * own transaction, before it commits. Every surface's writes come here (profile tools, native MCP
 * tools, the CLI, REST, the board), since all of them commit through the store. A task whose
 * source-held fields did not move (a claim, a comment) is not written. A read-only link refuses a
 * change to those fields, which rolls the whole write back.
 */
import type { Context } from '../core/context.js';
import { nowIso } from '../core/context.js';
import { CairnError } from '../core/errors.js';
import type { LinkItem, LinkRow, PushedWrite, RawEvent } from '../core/link-port.js';
import type { ChecklistItem } from '../core/model/task.js';
import type { TaskRow, Tx } from '../core/ports.js';
import { displayIdOf } from '../core/services/hydrate.js';
import { fingerprint, heldView } from './fingerprint.js';
import type { Held, LinkedProject, LinkedTask, LinkSource, WriteBatch, WriteResult } from './source.js';

export interface LiveSource {
  row: LinkRow;
  source: LinkSource;
  /** Each file's stamp as last read by this process. */
  stamps: Map<string, string>;
}

/** What a push changed of each link's files: new stamps (undefined: removed). */
export type PushedFiles = Map<string, Map<string, string | undefined>>;

export function heldOfTask(row: TaskRow, checklist: ChecklistItem[], parent: string | null, blockedBy: string[]): Held {
  return {
    title: row.title,
    description: row.description,
    status: row.status,
    kind: row.kind,
    priority: row.priority,
    labels: [...row.labels].sort(),
    assignee: row.assignee,
    substatus: row.substatus,
    slug: row.slug,
    links: row.links,
    closeReason: row.closeReason,
    checklist: checklist.map((i) => ({ text: i.text, checked: i.checked })),
    parent,
    blockedBy: [...blockedBy].sort(),
    category: row.category,
  };
}

/** A task's held fields with its parent and blockers named by their records' source ids in the same link. */
async function heldFor(tx: Tx, live: LiveSource, row: TaskRow): Promise<{ held: Held; checklist: ChecklistItem[] }> {
  const { fields } = live.source;
  const checklist = fields.includes('checklist') ? await tx.getChecklist(row.uid) : [];
  let parent: string | null = null;
  let blockedBy: string[] = [];
  if (fields.includes('parent') || fields.includes('blockedBy')) {
    const blockers = fields.includes('blockedBy') ? await tx.blockerUids(row.uid) : [];
    const wanted = [...blockers, ...(row.parentUid ? [row.parentUid] : [])];
    const items = new Map((await tx.links.itemsOfTasks(wanted)).filter((i) => i.linkId === live.row.id).map((i) => [i.taskUid, i.sourceId]));
    parent = row.parentUid ? (items.get(row.parentUid) ?? null) : null;
    blockedBy = blockers.map((u) => items.get(u)).filter((s): s is string => s !== undefined);
  }
  return { held: heldOfTask(row, checklist, parent, blockedBy), checklist };
}

function readOnlyError(live: LiveSource, plan: Plan): CairnError {
  const t = plan.upserts[0];
  const d = plan.deletes[0];
  const what = t?.item
    ? `Task ${displayIdOf(t.row)}'s ${t.changed.length ? t.changed.join(', ') : 'fields'} ${t.changed.length > 1 ? 'live' : 'lives'} in ${live.source.label}`
    : t
      ? `A new task in project ${t.row.projectKey} would go into ${live.source.label}`
      : d
        ? `Deleting a task would remove its record from ${live.source.label}`
        : `A project of this kind would be added to ${live.source.label}`;
  const reason = live.source.readOnlyReason ?? 'the link was made read-only';
  return new CairnError('LINK_READ_ONLY', `${what}, which Cairn reads but does not write: ${reason}. Nothing was changed.`, {
    suggestions: [
      `Change it in the program that owns ${live.source.path}; Cairn shows the change on its next read`,
      "Claims, comments, checklists and dependencies are Cairn's own and can still be added",
      `When that program is closed, cairn link ${JSON.stringify(live.source.path)} --writable lets Cairn write it`,
    ],
    details: { link: live.source.path, kind: live.row.kind },
  });
}

interface Plan {
  live: LiveSource;
  upserts: LinkedTask[];
  deletes: Array<{ item: LinkItem; projectRef: string }>;
  lanes: Set<string>;
  projects: LinkedProject[];
}

/** Writes back what the events after `since` changed in linked projects; returns the files each link wrote. */
export async function pushChanges(tx: Tx, ctx: Context, lives: LiveSource[], since: number): Promise<PushedFiles> {
  const out: PushedFiles = new Map();
  const events = await tx.links.eventsSince(since);
  if (!events.length) return out;
  const byId = new Map(lives.map((l) => [l.row.id, l]));
  const projectLink = new Map<string, { live: LiveSource; ref: string }>();
  for (const live of lives) for (const p of await tx.links.projects(live.row.id)) projectLink.set(p.projectUid, { live, ref: p.ref });
  const plans = new Map<string, Plan>();
  const planOf = (live: LiveSource): Plan => {
    let p = plans.get(live.row.id);
    if (!p) plans.set(live.row.id, (p = { live, upserts: [], deletes: [], lanes: new Set(), projects: [] }));
    return p;
  };
  await planProjects(tx, events, lives, projectLink, planOf);
  await planTasks(tx, events, byId, projectLink, planOf);
  for (const plan of plans.values()) {
    const files = await writePlan(tx, ctx, plan);
    if (files.size) out.set(plan.live.row.id, files);
  }
  return out;
}

const projectEventsOf = (events: RawEvent[], uid: string) => events.filter((e) => e.taskUid === null && e.projectUid === uid && e.type.startsWith('project.'));

/** New projects a source holds (a DevPlanner workspace makes their folders) and linked projects whose name or lanes changed. */
async function planProjects(tx: Tx, events: RawEvent[], lives: LiveSource[], projectLink: Map<string, { live: LiveSource; ref: string }>, planOf: (l: LiveSource) => Plan): Promise<void> {
  const holder = lives.filter((l) => l.source.holdsProjects);
  const seen = new Set<string>();
  for (const e of events) {
    if (e.taskUid !== null || !e.projectUid || seen.has(e.projectUid) || !e.type.startsWith('project.')) continue;
    seen.add(e.projectUid);
    const linked = projectLink.get(e.projectUid);
    const template = e.type === 'project.created' ? e.changes.template?.after : undefined;
    const live = linked?.live ?? (template === undefined ? undefined : holder.find((l) => l.row.kind === template));
    if (!live) continue;
    const held = live.source.projectFields ?? [];
    if (linked && !projectEventsOf(events, e.projectUid).some((x) => Object.keys(x.changes).some((f) => held.includes(f)))) continue;
    const row = await tx.getProjectByUid(e.projectUid);
    if (!row) continue;
    planOf(live).projects.push({ row, statuses: await tx.getStatuses(row.uid), ref: linked?.ref });
  }
}

async function planTasks(tx: Tx, events: RawEvent[], byId: Map<string, LiveSource>, projectLink: Map<string, { live: LiveSource; ref: string }>, planOf: (l: LiveSource) => Plan): Promise<void> {
  const uids = [...new Set(events.map((e) => e.taskUid).filter((u): u is string => u !== null))];
  const purged = events.some((e) => e.type === 'task.purged' && e.projectUid !== null && projectLink.has(e.projectUid));
  if (!uids.length && !purged) return;
  const items = new Map((await tx.links.itemsOfTasks(uids)).map((i) => [i.taskUid, i]));
  const lanesMoved = new Map<string, string[]>();
  const fieldsOf = new Map<string, Set<string>>();
  const beforeOf = new Map<string, Record<string, unknown>>();
  for (const e of events) {
    if (!e.taskUid) continue;
    const set = fieldsOf.get(e.taskUid) ?? new Set<string>();
    const before = beforeOf.get(e.taskUid) ?? {};
    for (const [k, c] of Object.entries(e.changes)) {
      set.add(k);
      if (!(k in before)) before[k] = c.before;
    }
    fieldsOf.set(e.taskUid, set);
    beforeOf.set(e.taskUid, before);
    const lane = e.changes.status?.before;
    if (typeof lane === 'string' || e.changes.position) lanesMoved.set(e.taskUid, [...(lanesMoved.get(e.taskUid) ?? []), ...(typeof lane === 'string' ? [lane] : [])]);
  }
  for (const row of await tx.getTasks(uids)) {
    const item = items.get(row.uid);
    const linked = projectLink.get(row.projectUid);
    const live = item ? byId.get(item.linkId) : linked?.live;
    if (!live || !linked) continue;
    const plan = planOf(live);
    const laneKey = (status: string) => `${linked.ref}\u0000${status}`;
    if (row.deletedAt !== null) {
      if (item) {
        plan.deletes.push({ item, projectRef: linked.ref });
        plan.lanes.add(laneKey(row.status));
      }
      continue;
    }
    const { held, checklist } = await heldFor(tx, live, row);
    if (item && item.hash === fingerprint(live.source, held)) {
      // Cairn's own change (a claim, a comment); a move within a lane still reorders it.
      if (lanesMoved.has(row.uid)) plan.lanes.add(laneKey(row.status));
      continue;
    }
    const changed = [...(fieldsOf.get(row.uid) ?? [])].filter((f) => (live.source.fields as readonly string[]).includes(f));
    const before = Object.fromEntries(changed.map((f) => [f, beforeOf.get(row.uid)?.[f]])) as Partial<Held>;
    plan.upserts.push({ row, checklist, held, item, projectRef: linked.ref, changed, before });
    plan.lanes.add(laneKey(row.status));
    for (const s of lanesMoved.get(row.uid) ?? []) plan.lanes.add(laneKey(s));
  }
  if (purged) {
    // A purged task has no row left: its records are those whose task is gone.
    for (const live of new Set([...projectLink.values()].map((l) => l.live))) {
      const all = await tx.links.items(live.row.id);
      const exists = new Set((await tx.getTasks(all.map((i) => i.taskUid))).map((r) => r.uid));
      // The project is gone with the row; the source finds the record by its id and file.
      for (const item of all) if (!exists.has(item.taskUid)) planOf(live).deletes.push({ item, projectRef: '' });
    }
  }
}

/** Lanes a plan touched, each with its tasks first to last as the workspace now orders them. */
async function laneOrders(tx: Tx, plan: Plan, projectUidOf: Map<string, string>): Promise<WriteBatch['lanes']> {
  if (!plan.live.source.ordersLanes) return [];
  const out: WriteBatch['lanes'] = [];
  for (const key of plan.lanes) {
    const [projectRef, status] = key.split('\u0000') as [string, string];
    const projectUid = projectUidOf.get(projectRef);
    if (!projectUid) continue;
    const { rows } = await tx.listTasks({ projectUids: [projectUid], statuses: [status], includeDone: true }, 'position', 10_000, undefined, { count: false });
    const items = new Map((await tx.links.itemsOfTasks(rows.map((r) => r.uid))).map((i) => [i.taskUid, i.sourceId]));
    out.push({ projectRef, status, order: rows.map((r) => ({ taskUid: r.uid, sourceId: items.get(r.uid) })) });
  }
  return out;
}

async function writePlan(tx: Tx, ctx: Context, plan: Plan): Promise<Map<string, string | undefined>> {
  const { live } = plan;
  if (!plan.upserts.length && !plan.deletes.length && !plan.projects.length && !plan.lanes.size) return new Map();
  const changesSource = plan.upserts.length || plan.deletes.length || plan.projects.length;
  if (changesSource && (!live.row.writable || !live.source.write)) throw readOnlyError(live, plan);
  if (!live.source.write) return new Map();
  const projectUidOf = new Map((await tx.links.projects(live.row.id)).map((p) => [p.ref, p.projectUid]));
  const batch: WriteBatch = {
    upserts: plan.upserts,
    deletes: plan.deletes,
    lanes: await laneOrders(tx, plan, projectUidOf),
    projects: plan.projects,
    stamps: live.stamps,
    now: nowIso(ctx),
  };
  const result = live.source.write(batch);
  for (const p of result.projects) await tx.links.setProject(live.row.id, p.projectUid, p.ref);
  for (const id of result.identities) await tx.updateTask(id.taskUid, { slug: id.slug });
  const bySource = new Map(result.items.map((i) => [i.taskUid, i]));
  const rows: LinkItem[] = [];
  for (const u of plan.upserts) {
    const w = bySource.get(u.row.uid);
    if (!w) continue;
    const slug = result.identities.find((i) => i.taskUid === u.row.uid)?.slug;
    const held = slug ? { ...u.held, slug } : u.held;
    rows.push({ sourceId: w.sourceId, taskUid: u.row.uid, file: w.file, hash: fingerprint(live.source, held) });
  }
  await tx.links.putItems(live.row.id, rows);
  await tx.links.removeItems(live.row.id, result.removed);
  if (live.source.overwritesWhole) await rememberPushes(tx, live, plan.upserts, result.items, batch.now);
  const put = new Map([...result.files].filter((e): e is [string, string] => e[1] !== undefined));
  if (put.size) await tx.links.putFiles(live.row.id, put);
  const removed = [...result.files].filter(([, s]) => s === undefined).map(([f]) => f);
  if (removed.length) await tx.links.removeFiles(live.row.id, removed);
  return result.files;
}

/** Writes to a source its owner rewrites whole, kept so a later read can tell whether the owner erased them (pull.ts). */
async function rememberPushes(tx: Tx, live: LiveSource, upserts: LinkedTask[], written: WriteResult['items'], now: string): Promise<void> {
  const row = (await tx.links.list()).find((l) => l.id === live.row.id);
  if (!row) return;
  const fresh: PushedWrite[] = [];
  for (const u of upserts) {
    const w = written.find((i) => i.taskUid === u.row.uid);
    if (!w || !u.item || !u.changed.length) continue;
    const ours = heldView(live.source, u.held);
    const theirs = heldView(live.source, { ...u.held, ...u.before });
    const fields: PushedWrite['fields'] = {};
    for (const f of u.changed) if (JSON.stringify(ours[f]) !== JSON.stringify(theirs[f])) fields[f] = { ours: JSON.stringify(ours[f]), theirs: JSON.stringify(theirs[f]) };
    if (Object.keys(fields).length) fresh.push({ sourceId: w.sourceId, task: displayIdOf(u.row), at: now, fields });
  }
  if (!fresh.length) return;
  const kept = (row.state.pushed ?? []).filter((p) => !fresh.some((f) => f.sourceId === p.sourceId));
  await tx.links.update(row.id, { state: { ...row.state, pushed: [...kept, ...fresh].slice(-50) } });
}
