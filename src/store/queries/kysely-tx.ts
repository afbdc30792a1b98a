/** The Tx port over any Kysely database: shared queries plus the engine's own search index functions. */
import type { Kysely } from 'kysely';
import type { ProjectRow, Tx } from '../../core/ports.js';
import type { DB } from '../schema.js';
import * as events from './events.js';
import * as graph from './graph.js';
import * as leases from './leases.js';
import * as projects from './projects.js';
import * as taskList from './task-list.js';
import * as tasks from './tasks.js';
import * as tokens from './tokens.js';
import { openWorkCounts } from './open-work.js';
import { KyselyIdempotency } from './idempotency.js';
import { KyselyLinks } from './links.js';
import { KyselyTransfer } from './transfer.js';
import type { SearchEngine } from './search-engine.js';
import type { SummaryCache } from './summary-cache.js';
import type { ProjectCache } from './project-cache.js';
import type { Status } from '../../core/model/workflow.js';

export type { SearchEngine };

export class KyselyTx implements Tx {
  /** Projects and workflows remembered, unless this transaction has changed one (see ProjectCache). */
  #projects: ProjectCache | undefined;

  /**
   * `counts` and `summaries`: remembered totals and rows, given to read transactions only (see
   * CountCache, SummaryCache). `projectCache`: given to every transaction of the file, already
   * checked against the connection's data_version.
   */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly engine: SearchEngine,
    private readonly counts?: taskList.CountCache,
    private readonly summaries?: SummaryCache,
    projectCache?: ProjectCache,
  ) {
    this.#projects = projectCache;
  }

  /** Before any change to projects or workflows: forget them, and remember nothing more in this transaction. */
  #changingProjects(): void {
    this.#projects?.clear();
    this.#projects = undefined;
  }

  listProjects: Tx['listProjects'] = (a) => projects.listProjects(this.db, a);
  getProjectByKey: Tx['getProjectByKey'] = (key) => this.#project('key', key);
  getProjectByUid: Tx['getProjectByUid'] = (uid) => this.#project('uid', uid);
  insertProject: Tx['insertProject'] = (r, s) => (this.#changingProjects(), projects.insertProject(this.db, r, s));
  updateProject: Tx['updateProject'] = (u, p) => (this.#changingProjects(), projects.updateProject(this.db, u, p));
  getStatuses: Tx['getStatuses'] = async (u) => {
    const cache = this.#projects;
    const known = cache?.statuses(u);
    if (known) return known as Status[];
    const statuses = await projects.getStatuses(this.db, u);
    return cache && this.#projects === cache ? (cache.rememberStatuses(u, statuses) as Status[]) : statuses;
  };
  replaceStatuses: Tx['replaceStatuses'] = (u, s) => (this.#changingProjects(), projects.replaceStatuses(this.db, u, s));

  async #project(by: 'key' | 'uid', value: string): Promise<ProjectRow | undefined> {
    const cache = this.#projects;
    const known = cache?.project(by, value);
    if (known) return known;
    const row = await projects.getProjectBy(this.db, by, value);
    // Still remembering (no change to projects began while the query ran)?
    return row && cache && this.#projects === cache ? cache.rememberProject(row) : row;
  }
  allocateSeq: Tx['allocateSeq'] = (u) => projects.allocateSeq(this.db, u);
  // A project's task count (get_project, list_projects, every profile call that names a project) is
  // remembered like a list total: exact for the workspace state the read sees.
  taskCounts: Tx['taskCounts'] = async (u) => {
    const counts = this.counts;
    if (!counts) return projects.taskCounts(this.db, u);
    const out = new Map<string, number>();
    for (const uid of u) out.set(uid, await counts.get(this.db, `project-tasks:${uid}`, async () => (await projects.taskCounts(this.db, [uid])).get(uid) ?? 0));
    return out;
  };

  getTask: Tx['getTask'] = (u) => tasks.getTask(this.db, u);
  getTaskBySeq: Tx['getTaskBySeq'] = (p, s) => tasks.getTaskBySeq(this.db, p, s);
  getTaskByKey: Tx['getTaskByKey'] = (k, s) => tasks.getTaskByKey(this.db, k, s);
  getTasks: Tx['getTasks'] = (u) => tasks.getTasks(this.db, u);
  taskDetails: Tx['taskDetails'] = (u, d) => tasks.taskDetails(this.db, u, d);
  getTaskSummaries: Tx['getTaskSummaries'] = (u) => tasks.getTaskSummaries(this.db, u);
  insertTask: Tx['insertTask'] = (r, c) => tasks.insertTask(this.db, r, c);
  updateTask: Tx['updateTask'] = (u, p) => tasks.updateTask(this.db, u, p);
  tryClaim: Tx['tryClaim'] = (u, a, n, e, p, t) => tasks.tryClaim(this.db, u, a, n, e, p, t);
  dueLeases: Tx['dueLeases'] = (n, l) => leases.dueLeases(this.db, n, l);
  markLeaseLapsed: Tx['markLeaseLapsed'] = (l) => leases.markLeaseLapsed(this.db, l);
  nextLeaseEnd: Tx['nextLeaseEnd'] = () => leases.nextLeaseEnd(this.db);
  liveReservations: Tx['liveReservations'] = (n) => leases.liveReservations(this.db, n);
  listTasks: Tx['listTasks'] = (f, s, l, a, opts) => taskList.listTasks(this.db, f, s, l, a, opts, this.counts, this.summaries);
  lanePositions: Tx['lanePositions'] = (p, s, e) => tasks.lanePositions(this.db, p, s, e);
  maxLanePosition: Tx['maxLanePosition'] = (p, s) => tasks.maxLanePosition(this.db, p, s);
  renumberLane: Tx['renumberLane'] = (p, s) => tasks.renumberLane(this.db, p, s);
  setCategoryForStatus: Tx['setCategoryForStatus'] = (p, s, c, n) => tasks.setCategoryForStatus(this.db, p, s, c, n);
  countTasksInStatus: Tx['countTasksInStatus'] = (p, s) => tasks.countTasksInStatus(this.db, p, s);
  recentTaskTitles: Tx['recentTaskTitles'] = (p, l) => tasks.recentTaskTitles(this.db, p, l);
  refreshOpenBlockers: Tx['refreshOpenBlockers'] = (u) => tasks.refreshOpenBlockers(this.db, u);
  boardRows: Tx['boardRows'] = (p, a) => tasks.boardRows(this.db, p, a);
  openWorkCounts: Tx['openWorkCounts'] = (f, o) => openWorkCounts(this.db, f, o);

  async purgeTask(uid: string): Promise<void> {
    const row = await this.db.selectFrom('tasks').select('num').where('uid', '=', uid).executeTakeFirst();
    if (row) await this.engine.removeFromIndex(this.db, row.num);
    await tasks.purgeTask(this.db, uid);
  }

  blockerUids: Tx['blockerUids'] = (u) => graph.blockerUids(this.db, u);
  dependentUids: Tx['dependentUids'] = (u) => graph.dependentUids(this.db, u);
  childUids: Tx['childUids'] = (u) => graph.childUids(this.db, u);
  parentUidOf: Tx['parentUidOf'] = (u) => graph.parentUid(this.db, u);
  addDependency: Tx['addDependency'] = (t, b, a) => graph.addDependency(this.db, t, b, a);
  removeDependency: Tx['removeDependency'] = (t, b) => graph.removeDependency(this.db, t, b);
  setLabels: Tx['setLabels'] = (u, l) => graph.setLabels(this.db, u, l);
  labelCounts: Tx['labelCounts'] = (p) => graph.labelCounts(this.db, p);
  getChecklist: Tx['getChecklist'] = (u) => graph.getChecklist(this.db, u);
  replaceChecklist: Tx['replaceChecklist'] = (u, i) => graph.replaceChecklist(this.db, u, i);
  getComments: Tx['getComments'] = (u) => graph.getComments(this.db, u);
  addComment: Tx['addComment'] = (u, c) => graph.addComment(this.db, u, c);

  reindexTask: Tx['reindexTask'] = (u, n) => this.engine.reindexTask(this.db, u, n);
  search: Tx['search'] = (q, f, l, a) => this.engine.search(this.db, q, f, l, a, this.counts);

  appendEvent: Tx['appendEvent'] = (e) => events.appendEvent(this.db, e);
  events: Tx['events'] = (q) => events.events(this.db, q);
  lastSeq: Tx['lastSeq'] = () => events.lastSeq(this.db);
  eventHeads: Tx['eventHeads'] = (a, l) => events.eventHeads(this.db, a, l);

  insertToken: Tx['insertToken'] = (r) => tokens.insertToken(this.db, r);
  listTokens: Tx['listTokens'] = (r) => tokens.listTokens(this.db, r);
  revokeToken: Tx['revokeToken'] = (i, a) => tokens.revokeToken(this.db, i, a);
  touchToken: Tx['touchToken'] = (i, a) => tokens.touchToken(this.db, i, a);

  // One writer at a time (SQLite): nothing to serialise; engines with concurrent writers override it.
  exclusive: Tx['exclusive'] = async () => undefined;

  get transfer(): Tx['transfer'] {
    return new KyselyTransfer(this.db, this.engine);
  }

  get idempotency(): Tx['idempotency'] {
    return new KyselyIdempotency(this.db);
  }

  get links(): Tx['links'] {
    return new KyselyLinks(this.db);
  }
}
