/**
 * A store that reaches only some projects: what a project-limited token (`cairn token create
 * --project WEB`) works through. It sits below every operation, so REST, MCP, the profiles, search,
 * the feed and the board get the same boundary without each checking it.
 *
 * Reads of other projects' rows answer as if the rows did not exist (an id elsewhere is "not
 * found", never "forbidden", so a limited caller cannot probe what exists). Writes re-check the
 * project of every row they touch, even though the services found those rows through this view.
 * Workspace-wide things (creating projects, tokens, linked sources, bulk transfer) are refused.
 *
 * What passes through unchecked is upkeep the store derives from other rows: open-blocker counts,
 * search entries, graph walks by uid. A completion in WEB must still refresh an OTH task it
 * unblocks, and a cycle through an OTH task is still a cycle.
 *
 * Implementing `Tx` explicitly (not a Proxy) is deliberate: a method added to the port fails to
 * compile here until someone decides what a limited caller may do with it.
 */
import type { ActivityEvent } from './model/activity.js';
import type { ChecklistItem, Comment, CommentKind } from './model/task.js';
import type { Category, Status } from './model/workflow.js';
import { CairnError } from './errors.js';
import type { IdempotencyTx } from './idempotency-port.js';
import type { LinkItem, LinkTx } from './link-port.js';
import type {
  BoardRow,
  DueLease,
  EventQuery,
  ListAfter,
  LiveReservation,
  NewEvent,
  OpenWorkCounts,
  ProjectPatch,
  ProjectRow,
  SearchAfter,
  SearchHit,
  Store,
  TaskFilter,
  TaskPatch,
  TaskRow,
  TaskSort,
  TaskSummaryRow,
  TokenRow,
  Tx,
} from './ports.js';
import type { TransferTx } from './transfer-port.js';

/** Wraps `store` so that every transaction sees only the projects in `projectUids`. The view does not own the store: closing it closes nothing. */
export function limitToProjects(store: Store, projectUids: readonly string[]): Store {
  const allowed = new Set(projectUids);
  return {
    read: (fn) => store.read((tx) => fn(new LimitedTx(tx, allowed))),
    write: (fn) => store.write((tx) => fn(new LimitedTx(tx, allowed))),
    changeToken: () => store.changeToken(),
    projectsToken: () => store.projectsToken(),
    ...(store.onCommit ? { onCommit: (listener: () => void) => store.onCommit!(listener) } : {}),
    ...(store.forgetLinks ? { forgetLinks: () => store.forgetLinks!() } : {}),
    close: async () => undefined,
    get location() {
      return store.location;
    },
  };
}

function outside(what: string): CairnError {
  return new CairnError('FORBIDDEN', `This token is limited to some projects, and ${what} belongs to the whole workspace. Nothing was changed.`, {
    suggestions: ['Use a token without a project limit (cairn token create without --project)', "cairn token list shows each token's projects"],
  });
}

function notReachable(kind: 'task' | 'project'): CairnError {
  return new CairnError(kind === 'task' ? 'TASK_NOT_FOUND' : 'PROJECT_NOT_FOUND', `No such ${kind} in the projects this token reaches. Nothing was changed.`, {
    suggestions: ["cairn token list shows each token's projects"],
  });
}

const NO_EVENTS: ActivityEvent[] = [];

/** The fields of a task row that name other tasks by display id. */
const RELATED = ['blockedBy', 'openBlockerIds', 'blocks', 'children', 'parentId'] as const;
type Related = (typeof RELATED)[number];

/** Changes that name tasks by display id; uids of rows (parentUid) are never shown to a limited caller. */
const ID_CHANGES = new Set(['blockedBy', 'openBlockers', 'blocks', 'children', 'parentId', 'forcedPastBlockers']);

/** An event as a limited caller may see it: ids of tasks in other projects left out of what it names. */
export function stripEvent(e: ActivityEvent, keys: ReadonlySet<string>): ActivityEvent {
  const here = (id: string) => keys.has(id.slice(0, id.lastIndexOf('-')));
  const keep = (v: unknown): unknown => (typeof v === 'string' ? (here(v) ? v : null) : Array.isArray(v) ? v.filter((x) => typeof x !== 'string' || here(x)) : v);
  let changes: ActivityEvent['changes'] | undefined;
  for (const [field, c] of Object.entries(e.changes)) {
    if (!ID_CHANGES.has(field) && !field.endsWith('Uid')) continue;
    changes ??= { ...e.changes };
    if (field.endsWith('Uid')) delete changes[field];
    else changes[field] = { before: keep(c.before), after: keep(c.after) };
  }
  return changes ? { ...e, changes } : e;
}

class LimitedTx implements Tx {
  /** Whether a task uid is in a reachable project, learned from the rows this transaction read. */
  readonly #reach = new Map<string, boolean>();

  constructor(
    private readonly tx: Tx,
    private readonly allowed: ReadonlySet<string>,
  ) {}

  #ok = (projectUid: string): boolean => this.allowed.has(projectUid);

  /** Keys of the reachable projects, read once per transaction (keys never change). */
  #keys: Promise<ReadonlySet<string>> | undefined;

  /**
   * The row when its project is reachable, with the ids of tasks elsewhere left out of its edges: a
   * limited caller sees that a task waits (openBlockers still counts every open blocker), not on what.
   */
  async #keep<T extends Pick<TaskRow, 'uid' | 'projectUid' | Related>>(row: T | undefined): Promise<T | undefined> {
    if (!row) return undefined;
    const ok = this.#ok(row.projectUid);
    this.#reach.set(row.uid, ok);
    return ok ? this.#strip(row, await this.#reachableKeys()) : undefined;
  }

  async #keepAll<T extends Pick<TaskRow, 'uid' | 'projectUid' | Related>>(rows: T[]): Promise<T[]> {
    const keys = await this.#reachableKeys();
    const kept: T[] = [];
    for (const r of rows) {
      const ok = this.#ok(r.projectUid);
      this.#reach.set(r.uid, ok);
      if (ok) kept.push(this.#strip(r, keys));
    }
    return kept;
  }

  #reachableKeys(): Promise<ReadonlySet<string>> {
    return (this.#keys ??= this.listProjects(true).then((ps) => new Set(ps.map((p) => p.key))));
  }

  #strip<T extends Pick<TaskRow, Related>>(row: T, keys: ReadonlySet<string>): T {
    const here = (id: string) => keys.has(id.slice(0, id.lastIndexOf('-')));
    if (RELATED.every((f) => (f === 'parentId' ? row.parentId === null || here(row.parentId) : (row[f] as string[]).every(here)))) return row;
    return {
      ...row,
      blockedBy: row.blockedBy.filter(here),
      openBlockerIds: row.openBlockerIds.filter(here),
      blocks: row.blocks.filter(here),
      children: row.children.filter(here),
      parentId: row.parentId !== null && here(row.parentId) ? row.parentId : null,
    };
  }

  /** The reachable ones among `uids`, in their order (unknown ones are looked up once). */
  async #reachable(uids: string[]): Promise<string[]> {
    const unknown = uids.filter((u) => !this.#reach.has(u));
    if (unknown.length) {
      for (const r of await this.tx.getTaskSummaries(unknown)) this.#reach.set(r.uid, this.#ok(r.projectUid));
      for (const u of unknown) if (!this.#reach.has(u)) this.#reach.set(u, false);
    }
    return uids.filter((u) => this.#reach.get(u));
  }

  async #mustTask(uid: string): Promise<void> {
    if (!(await this.#reachable([uid])).length) throw notReachable('task');
  }

  #mustProject(uid: string): void {
    if (!this.#ok(uid)) throw notReachable('project');
  }

  /** The filter narrowed to reachable projects; undefined when nothing can match. */
  #filter(f: TaskFilter): TaskFilter | undefined {
    const projectUids = (f.projectUids ?? [...this.allowed]).filter(this.#ok);
    return projectUids.length ? { ...f, projectUids } : undefined;
  }

  // projects
  async listProjects(includeArchived: boolean): Promise<ProjectRow[]> {
    return (await this.tx.listProjects(includeArchived)).filter((p) => this.#ok(p.uid));
  }
  async getProjectByKey(key: string): Promise<ProjectRow | undefined> {
    const p = await this.tx.getProjectByKey(key);
    return p && this.#ok(p.uid) ? p : undefined;
  }
  async getProjectByUid(uid: string): Promise<ProjectRow | undefined> {
    return this.#ok(uid) ? this.tx.getProjectByUid(uid) : undefined;
  }
  async insertProject(_row: ProjectRow, _statuses: Status[]): Promise<void> {
    throw outside('creating a project');
  }
  async updateProject(uid: string, patch: ProjectPatch): Promise<void> {
    this.#mustProject(uid);
    // Aliases and roots must be free across the whole workspace, which this view cannot see (a
    // service's check here would pass an alias another project holds): they are the workspace's to change.
    const row = await this.tx.getProjectByUid(uid);
    if (row && patch.aliases !== undefined && JSON.stringify(patch.aliases) !== JSON.stringify(row.aliases)) throw outside("a project's aliases");
    if (row && patch.root !== undefined && patch.root !== row.root) throw outside("a project's root");
    return this.tx.updateProject(uid, patch);
  }
  async getStatuses(projectUid: string): Promise<Status[]> {
    this.#mustProject(projectUid);
    return this.tx.getStatuses(projectUid);
  }
  async replaceStatuses(projectUid: string, statuses: Status[]): Promise<void> {
    this.#mustProject(projectUid);
    return this.tx.replaceStatuses(projectUid, statuses);
  }
  async allocateSeq(projectUid: string): Promise<number> {
    this.#mustProject(projectUid);
    return this.tx.allocateSeq(projectUid);
  }
  taskCounts(projectUids: string[]): Promise<Map<string, number>> {
    return this.tx.taskCounts(projectUids.filter(this.#ok));
  }

  // tasks
  async getTask(uid: string): Promise<TaskRow | undefined> {
    return this.#keep(await this.tx.getTask(uid));
  }
  async getTaskBySeq(projectUid: string, seq: number): Promise<TaskRow | undefined> {
    return this.#ok(projectUid) ? this.#keep(await this.tx.getTaskBySeq(projectUid, seq)) : undefined;
  }
  async getTaskByKey(projectKey: string, seq: number): Promise<TaskRow | undefined> {
    return this.#keep(await this.tx.getTaskByKey(projectKey, seq));
  }
  async getTasks(uids: string[]): Promise<TaskRow[]> {
    return this.#keepAll(await this.tx.getTasks(uids));
  }
  async taskDetails(uids: string[], withDescription: boolean): Promise<Array<Pick<TaskRow, 'uid' | 'description' | 'links' | 'completedAt' | 'closeReason' | 'origin'>>> {
    return this.tx.taskDetails(await this.#reachable(uids), withDescription);
  }
  async getTaskSummaries(uids: string[]): Promise<TaskSummaryRow[]> {
    return this.#keepAll(await this.tx.getTaskSummaries(uids));
  }
  async insertTask(row: TaskRow, checklist?: ChecklistItem[]): Promise<void> {
    this.#mustProject(row.projectUid);
    if (row.parentUid) await this.#mustTask(row.parentUid);
    await this.tx.insertTask(row, checklist);
    this.#reach.set(row.uid, true);
  }
  async updateTask(uid: string, patch: TaskPatch): Promise<void> {
    await this.#mustTask(uid);
    if (patch.parentUid) await this.#mustTask(patch.parentUid);
    return this.tx.updateTask(uid, patch);
  }
  async tryClaim(uid: string, actor: string, now: string, expiresAt: string, patch: TaskPatch, takeover?: number): Promise<boolean> {
    await this.#mustTask(uid);
    return this.tx.tryClaim(uid, actor, now, expiresAt, patch, takeover);
  }

  // Announcing lease ends is the server's own upkeep, never a token's call: a limited view has none to announce.
  async dueLeases(): Promise<DueLease[]> {
    return [];
  }

  async markLeaseLapsed(): Promise<boolean> {
    return false;
  }

  async nextLeaseEnd(): Promise<string | null> {
    return null;
  }

  // Only the projects the token reaches: another project's reservations are as absent as its tasks.
  async liveReservations(now: string): Promise<LiveReservation[]> {
    const all = await this.tx.liveReservations(now);
    const allowed = new Set((await this.tx.getTasks(all.map((r) => r.uid))).filter((t) => this.#ok(t.projectUid)).map((t) => t.uid));
    return all.filter((r) => allowed.has(r.uid));
  }
  async purgeTask(uid: string): Promise<void> {
    await this.#mustTask(uid);
    return this.tx.purgeTask(uid);
  }
  async listTasks(filter: TaskFilter, sort: TaskSort, limit: number, after?: ListAfter, opts?: { count?: boolean }): Promise<{ rows: TaskSummaryRow[]; total: number; more: boolean }> {
    const f = this.#filter(filter);
    if (!f) return { rows: [], total: 0, more: false };
    const page = await this.tx.listTasks(f, sort, limit, after, opts);
    return { ...page, rows: await this.#keepAll(page.rows) };
  }
  async lanePositions(projectUid: string, status: string, excludeUid: string): Promise<number[]> {
    this.#mustProject(projectUid);
    return this.tx.lanePositions(projectUid, status, excludeUid);
  }
  async maxLanePosition(projectUid: string, status: string): Promise<number> {
    this.#mustProject(projectUid);
    return this.tx.maxLanePosition(projectUid, status);
  }
  async renumberLane(projectUid: string, status: string): Promise<void> {
    this.#mustProject(projectUid);
    return this.tx.renumberLane(projectUid, status);
  }
  refreshOpenBlockers(uids: string[]): Promise<void> {
    return this.tx.refreshOpenBlockers(uids);
  }
  async setCategoryForStatus(projectUid: string, status: string, category: Category, now: string): Promise<void> {
    this.#mustProject(projectUid);
    return this.tx.setCategoryForStatus(projectUid, status, category, now);
  }
  async countTasksInStatus(projectUid: string, status: string): Promise<number> {
    this.#mustProject(projectUid);
    return this.tx.countTasksInStatus(projectUid, status);
  }
  async recentTaskTitles(projectUid: string | null, limit: number): Promise<Array<{ id: string; title: string }>> {
    if (projectUid !== null) return this.#ok(projectUid) ? this.tx.recentTaskTitles(projectUid, limit) : [];
    const each = await Promise.all([...this.allowed].map((p) => this.tx.recentTaskTitles(p, limit)));
    return each.flat().slice(0, limit);
  }

  // graph: walks see every edge (a cycle through another project is still a cycle); rows are read through getTasks
  blockerUids(uid: string): Promise<string[]> {
    return this.tx.blockerUids(uid);
  }
  dependentUids(uid: string): Promise<string[]> {
    return this.tx.dependentUids(uid);
  }
  childUids(uid: string): Promise<string[]> {
    return this.tx.childUids(uid);
  }
  parentUidOf(uid: string): Promise<string | null> {
    return this.tx.parentUidOf(uid);
  }
  async addDependency(taskUid: string, blockerUid: string, at: string): Promise<boolean> {
    await this.#mustTask(taskUid);
    await this.#mustTask(blockerUid);
    return this.tx.addDependency(taskUid, blockerUid, at);
  }
  async removeDependency(taskUid: string, blockerUid: string): Promise<boolean> {
    await this.#mustTask(taskUid);
    return this.tx.removeDependency(taskUid, blockerUid);
  }

  // labels, checklist, comments
  async setLabels(uid: string, labels: string[]): Promise<void> {
    await this.#mustTask(uid);
    return this.tx.setLabels(uid, labels);
  }
  labelCounts(projectUids: string[] | null): Promise<Array<{ label: string; count: number }>> {
    return this.tx.labelCounts((projectUids ?? [...this.allowed]).filter(this.#ok));
  }
  async getChecklist(uid: string): Promise<ChecklistItem[]> {
    await this.#mustTask(uid);
    return this.tx.getChecklist(uid);
  }
  async replaceChecklist(uid: string, items: ChecklistItem[]): Promise<void> {
    await this.#mustTask(uid);
    return this.tx.replaceChecklist(uid, items);
  }
  async getComments(uid: string): Promise<Comment[]> {
    await this.#mustTask(uid);
    return this.tx.getComments(uid);
  }
  async addComment(uid: string, comment: { id: string; author: string; kind: CommentKind; body: string; createdAt: string }): Promise<void> {
    await this.#mustTask(uid);
    return this.tx.addComment(uid, comment);
  }

  // search
  reindexTask(uid: string, isNew?: boolean): Promise<void> {
    return this.tx.reindexTask(uid, isNew);
  }
  async search(query: string, filter: TaskFilter, limit: number, after?: SearchAfter): Promise<{ hits: SearchHit[]; total: number; consumed: Array<{ num: number; rank: number }>; more: boolean }> {
    const f = this.#filter(filter);
    if (!f) return { hits: [], total: 0, consumed: [], more: false };
    const page = await this.tx.search(query, f, limit, after);
    const keys = await this.#reachableKeys();
    return { ...page, hits: page.hits.map((h) => ({ ...h, task: this.#strip(h.task, keys) })) };
  }

  // board
  boardRows(projectUids: string[], includeArchived: boolean): Promise<BoardRow[]> {
    return this.tx.boardRows(projectUids.filter(this.#ok), includeArchived);
  }
  async openWorkCounts(filter: TaskFilter, opts: { topBlockers: number; blocked: number }): Promise<OpenWorkCounts> {
    const f = this.#filter(filter);
    if (!f) return { groups: [], topBlockers: [], blocked: [] };
    const counts = await this.tx.openWorkCounts(f, opts);
    const keys = await this.#reachableKeys();
    return { ...counts, topBlockers: counts.topBlockers.filter((b) => keys.has(b.id.slice(0, b.id.lastIndexOf('-')))) };
  }

  // activity
  appendEvent(e: NewEvent): Promise<number> {
    return this.tx.appendEvent(e);
  }
  async events(q: EventQuery): Promise<ActivityEvent[]> {
    if (q.taskUid !== undefined && !(await this.#reachable([q.taskUid])).length) return NO_EVENTS;
    const events =
      q.projectUid !== undefined ? (this.#ok(q.projectUid) ? await this.tx.events(q) : NO_EVENTS) : await this.tx.events({ ...q, projectUids: (q.projectUids ?? [...this.allowed]).filter(this.#ok) });
    const keys = await this.#reachableKeys();
    return events.map((e) => stripEvent(e, keys));
  }
  lastSeq(): Promise<number> {
    return this.tx.lastSeq();
  }
  eventHeads(afterSeq: number, limit: number): Promise<Array<{ seq: number; type: string }>> {
    return this.tx.eventHeads(afterSeq, limit);
  }

  // API tokens belong to the workspace
  async insertToken(_row: TokenRow): Promise<void> {
    throw outside('creating a token');
  }
  async listTokens(_includeRevoked: boolean): Promise<TokenRow[]> {
    throw outside('the token list');
  }
  async revokeToken(_id: string, _at: string): Promise<boolean> {
    throw outside('revoking a token');
  }
  touchToken(id: string, at: string): Promise<void> {
    return this.tx.touchToken(id, at);
  }

  exclusive(resource: 'graph' | 'projects' | 'tokens'): Promise<void> {
    return this.tx.exclusive(resource);
  }

  get transfer(): TransferTx {
    throw outside('export and import');
  }

  get idempotency(): IdempotencyTx {
    return this.tx.idempotency;
  }

  get links(): LinkTx {
    return new LimitedLinks(this.tx.links, (uids) => this.#reachable(uids));
  }
}

/** Linked sources belong to the workspace; what a task operation asks of them (is it read-only, which task has this source id) passes. */
class LimitedLinks implements LinkTx {
  constructor(
    private readonly links: LinkTx,
    private readonly reachable: (uids: string[]) => Promise<string[]>,
  ) {}

  inReadOnlyLink(taskUid: string): Promise<boolean> {
    return this.links.inReadOnlyLink(taskUid);
  }
  async tasksBySourceId(sourceId: string): Promise<string[]> {
    return this.reachable(await this.links.tasksBySourceId(sourceId));
  }
  async itemsOfTasks(taskUids: string[]): Promise<Array<LinkItem & { linkId: string }>> {
    return this.links.itemsOfTasks(await this.reachable(taskUids));
  }
  eventsSince(): never {
    throw outside('a linked source');
  }
  list(): never {
    throw outside('the linked sources');
  }
  insert(): never {
    throw outside('linking a source');
  }
  update(): never {
    throw outside('a linked source');
  }
  remove(): never {
    throw outside('unlinking a source');
  }
  projects(): never {
    throw outside('a linked source');
  }
  setProject(): never {
    throw outside('a linked source');
  }
  items(): never {
    throw outside('a linked source');
  }
  putItems(): never {
    throw outside('a linked source');
  }
  removeItems(): never {
    throw outside('a linked source');
  }
  files(): never {
    throw outside('a linked source');
  }
  putFiles(): never {
    throw outside('a linked source');
  }
  removeFiles(): never {
    throw outside('a linked source');
  }
}
