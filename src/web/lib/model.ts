/**
 * The board's state: projects, the current project's lanes (paged from list_tasks in lane order),
 * filters, the live feed (activity, recently touched cards) and notices (conflicts, errors).
 * Every change comes back from the server: a live event makes the board re-read that task.
 */
import { type Api, ApiError, type BoardApi, saveToken } from './api.js';
import { type Feed, type FeedHandlers, LiveFeed, type FeedState } from './live-feed.js';
import { Observable } from './store.js';
import { NO_FILTERS, type ActivityEvent, type Filters, type Project, type Status, type Task, type TaskList, type TaskSummary } from './types.js';

export const PAGE = 100;
/** How long a card touched by someone else stays highlighted with their name. */
export const TOUCH_MS = 8000;

export interface Lane {
  status: Status;
  cards: TaskSummary[];
  total: number;
  cursor: string | null;
  loading: boolean;
}

export interface Notice {
  kind: 'conflict' | 'error' | 'info';
  message: string;
  taskId?: string;
  /** The fresh card after a conflict, shown beside the message. */
  fresh?: TaskSummary;
}

export class BoardModel extends Observable {
  projects: Project[] = [];
  project: Project | null = null;
  lanes: Lane[] = [];
  filters: Filters = { ...NO_FILTERS };
  feedState: FeedState = 'connecting';
  activity: ActivityEvent[] = [];
  touched = new Map<string, { actor: string; at: number }>();
  notice: Notice | null = null;
  needToken: { message: string } | null = null;
  /** Bumped for every batch of events: views that hold their own reads (ready, graph, detail) re-read on it. */
  liveTick = 0;
  /** Task ids changed by the last batch. */
  lastChanged = new Set<string>();
  loadError: string | null = null;
  /** Read out by the page's live region (moves made with the keyboard, live changes). */
  announcement = '';
  private feed: Feed;
  private loadSeq = 0;

  /** `feed` makes the live feed: the server's event stream by default. */
  constructor(
    readonly api: BoardApi,
    feed: (handlers: FeedHandlers) => Feed = (handlers) => new LiveFeed(api as Api, handlers),
  ) {
    super();
    api.onUnauthorized = (err) => this.askToken(err);
    this.feed = feed({
      onEvents: (events) => void this.onEvents(events),
      onReady: (lastSeq) => void this.backfill(lastSeq),
      onState: (s) => {
        this.feedState = s;
        this.changed();
      },
    });
  }

  async start(projectKey: string | null): Promise<void> {
    try {
      const { projects } = await this.api.get<{ projects: Project[] }>('/projects');
      this.projects = projects.filter((p) => !p.archived);
      this.loadError = null;
      this.feed.start();
      const key = projectKey && this.projects.some((p) => p.key === projectKey) ? projectKey : (this.projects[0]?.key ?? null);
      if (key) await this.openProject(key);
      else this.changed();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'UNAUTHORIZED')) this.loadError = (err as Error).message;
      this.changed();
    }
  }

  private askToken(err: ApiError): void {
    this.needToken = { message: this.api.token ? 'The saved token was refused (unknown, revoked or malformed). Enter another one.' : 'This server requires an API token.' };
    void err;
    this.changed();
  }

  async submitToken(token: string): Promise<void> {
    this.api.token = token.trim() || null;
    saveToken(this.api.token);
    this.needToken = null;
    // The feed reads the token on each connection; it retries on its own.
    await this.start(this.project?.key ?? null);
  }

  async openProject(key: string): Promise<void> {
    // The project list (just read) already has the workflow; read the project only if it is new.
    this.project = this.projects.find((p) => p.key === key) ?? (await this.api.get<{ project: Project }>(`/projects/${encodeURIComponent(key)}`)).project;
    // Labels and assignees differ between projects.
    this.filters = { ...NO_FILTERS };
    this.activity = [];
    if (this.feed.lastSeq !== undefined) void this.backfill(this.feed.lastSeq);
    await this.reloadLanes();
  }

  setFilters(f: Partial<Filters>): void {
    this.filters = { ...this.filters, ...f };
    this.reloadLanes().catch((err) => this.say('error', `Could not apply the filters: ${(err as Error).message}`));
  }

  get filtered(): boolean {
    return Object.values(this.filters).some(Boolean);
  }

  private listQuery(status: string, extra: Record<string, string | number | boolean> = {}) {
    const f = this.filters;
    return { project: this.project!.key, status, sort: 'position', includeDone: true, assignee: f.assignee, labels: f.label, kind: f.kind, priority: f.priority, limit: PAGE, ...extra };
  }

  async reloadLanes(): Promise<void> {
    const p = this.project;
    if (!p) return;
    const seq = ++this.loadSeq;
    const statuses = [...p.statuses].sort((a, b) => a.position - b.position);
    const lists = await Promise.all(statuses.map((s) => this.api.get<TaskList>('/tasks', this.listQuery(s.name))));
    if (seq !== this.loadSeq) return;
    this.lanes = statuses.map((status, i) => ({ status, cards: lists[i]!.tasks, total: lists[i]!.total, cursor: lists[i]!.nextCursor, loading: false }));
    this.changed();
  }

  async loadMore(status: string): Promise<void> {
    const lane = this.lane(status);
    if (!lane || !lane.cursor || lane.loading) return;
    lane.loading = true;
    try {
      const page = await this.api.get<TaskList>('/tasks', this.listQuery(status, { cursor: lane.cursor }));
      const have = new Set(lane.cards.map((c) => c.id));
      lane.cards = [...lane.cards, ...page.tasks.filter((t) => !have.has(t.id))];
      lane.cursor = page.nextCursor;
      lane.total = page.total;
    } finally {
      lane.loading = false;
      this.changed();
    }
  }

  lane(status: string): Lane | undefined {
    return this.lanes.find((l) => l.status.name === status);
  }

  findCard(id: string): { lane: Lane; index: number; card: TaskSummary } | undefined {
    for (const lane of this.lanes) {
      const index = lane.cards.findIndex((c) => c.id === id);
      if (index >= 0) return { lane, index, card: lane.cards[index]! };
    }
    return undefined;
  }

  private matches(t: TaskSummary): boolean {
    const f = this.filters;
    if (f.assignee && (f.assignee === 'none' ? t.assignee !== null : t.assignee !== f.assignee)) return false;
    if (f.label && !t.labels.includes(f.label)) return false;
    if (f.kind && t.kind !== f.kind) return false;
    if (f.priority && t.priority !== f.priority) return false;
    return true;
  }

  /** Puts a fresh task where it belongs (or removes it); null means it is gone. */
  place(id: string, t: (TaskSummary & Partial<Pick<Task, 'archivedAt' | 'deletedAt'>>) | null): void {
    const found = this.findCard(id);
    if (found) found.lane.cards.splice(found.index, 1);
    if (!t || !this.project || t.project !== this.project.key || t.archivedAt || t.deletedAt || !this.matches(t)) return;
    const lane = this.lane(t.status);
    if (!lane) return;
    const at = lane.cards.findIndex((c) => c.position > t.position);
    if (at >= 0) lane.cards.splice(at, 0, t);
    // Past the loaded page: it arrives with the next page instead.
    else if (!lane.cursor) lane.cards.push(t);
  }

  /** Re-reads a task and the lanes it left or entered (their counts). */
  async refresh(ids: Iterable<string>, lanes: Set<string> = new Set()): Promise<void> {
    const all = [...new Set(ids)];
    const tasks = await Promise.all(
      all.map((id) =>
        this.api.get<{ task: Task }>(`/tasks/${encodeURIComponent(id)}`).then(
          (r) => r.task,
          (err) => (err instanceof ApiError && err.code === 'TASK_NOT_FOUND' ? null : Promise.reject(err)),
        ),
      ),
    );
    all.forEach((id, i) => {
      const before = this.findCard(id);
      if (before) lanes.add(before.lane.status.name);
      const t = tasks[i];
      if (t) lanes.add(t.status);
      this.place(id, t ?? null);
    });
    await this.recount(lanes);
    this.changed();
  }

  private async recount(lanes: Set<string>): Promise<void> {
    if (!this.project) return;
    const names = [...lanes].filter((s) => this.lane(s));
    const totals = await Promise.all(names.map((s) => this.api.get<TaskList>('/tasks', this.listQuery(s, { limit: 1 })).then((r) => r.total)));
    names.forEach((s, i) => (this.lane(s)!.total = totals[i]!));
  }

  private pendingIds = new Set<string>();
  private pendingLanes = new Set<string>();
  private pendingProjects = false;
  private applying = false;

  /**
   * Live events: the activity list and highlights change at once; the cards they name are then
   * re-read. One re-read runs at a time (what arrives meanwhile joins the next), so an older answer
   * can never land after a newer one.
   */
  private onEvents(events: ActivityEvent[]): void {
    const key = this.project?.key;
    const now = Date.now();
    for (const e of events) {
      if (key && e.project === key) {
        this.activity.unshift(e);
        if (e.taskId) {
          this.pendingIds.add(e.taskId);
          this.touched.set(e.taskId, { actor: e.actor, at: now });
        }
      }
      if (e.type.startsWith('project.')) this.pendingProjects = true;
      for (const [field, ch] of Object.entries(e.changes)) {
        if (field === 'status') [ch.before, ch.after].forEach((s) => typeof s === 'string' && this.pendingLanes.add(s));
        // A dependency change also changes the other side's "blocks".
        if (field === 'blockedBy') [ch.before, ch.after].flat().forEach((x) => typeof x === 'string' && this.findCard(x) && this.pendingIds.add(x));
      }
    }
    if (this.activity.length > 300) this.activity.length = 300;
    for (const [id, t] of this.touched) if (now - t.at > TOUCH_MS) this.touched.delete(id);
    this.changed();
    setTimeout(() => this.changed(), TOUCH_MS + 50);
    void this.applyPending();
  }

  private async applyPending(): Promise<void> {
    if (this.applying) return;
    this.applying = true;
    try {
      while (this.pendingIds.size || this.pendingLanes.size || this.pendingProjects) {
        const ids = this.pendingIds;
        const lanes = this.pendingLanes;
        const projects = this.pendingProjects;
        this.pendingIds = new Set();
        this.pendingLanes = new Set();
        this.pendingProjects = false;
        // Finishing a blocker can make the tasks it blocks ready: re-read the ones on screen.
        for (const id of [...ids]) for (const b of this.findCard(id)?.card.blocks ?? []) if (this.findCard(b)) ids.add(b);
        try {
          if (projects) await this.reloadProjects();
          await this.refresh(ids, lanes);
        } catch (err) {
          this.say('error', `Could not refresh after a change: ${(err as Error).message}`);
        }
        this.lastChanged = ids;
        this.liveTick++;
        this.changed();
      }
    } finally {
      this.applying = false;
    }
  }

  private async reloadProjects(): Promise<void> {
    const key = this.project?.key;
    const { projects } = await this.api.get<{ projects: Project[] }>('/projects');
    this.projects = projects.filter((p) => !p.archived);
    const now = key ? this.projects.find((p) => p.key === key) : undefined;
    if (now && JSON.stringify(now.statuses) !== JSON.stringify(this.project?.statuses)) {
      this.project = now;
      await this.reloadLanes();
    }
  }

  /** The recent history of the project, so the activity panel is not empty at first. */
  private async backfill(lastSeq: number): Promise<void> {
    const key = this.project?.key;
    if (!key || this.activity.length) return;
    try {
      const r = await this.api.get<{ events: ActivityEvent[] }>('/changes', { since: Math.max(0, lastSeq - 200), project: key, limit: 200 });
      if (this.project?.key !== key) return;
      const seen = new Set(this.activity.map((e) => e.seq));
      this.activity = [...this.activity, ...r.events.filter((e) => !seen.has(e.seq) && e.seq <= lastSeq).reverse()].sort((a, b) => b.seq - a.seq).slice(0, 300);
      this.changed();
    } catch {
      // the panel fills from live events anyway
    }
  }

  touchedBy(id: string): string | null {
    const t = this.touched.get(id);
    return t && Date.now() - t.at < TOUCH_MS ? t.actor : null;
  }

  announce(text: string): void {
    this.announcement = text;
    this.changed();
  }

  say(kind: Notice['kind'], message: string, extra: Partial<Notice> = {}): void {
    this.notice = { kind, message, ...extra };
    this.changed();
  }

  /** A refused edit: a conflict names who changed the card and shows it fresh; anything else says what the server said. */
  async failed(err: unknown, taskId: string, what: string): Promise<void> {
    if (err instanceof ApiError && err.code === 'VERSION_CONFLICT') {
      let fresh: Task | undefined;
      try {
        fresh = (await this.api.get<{ task: Task }>(`/tasks/${encodeURIComponent(taskId)}`)).task;
      } catch {
        fresh = undefined;
      }
      const by = this.activity.find((e) => e.taskId === taskId)?.actor;
      await this.refresh([taskId]);
      this.say(
        'conflict',
        `Not saved: ${taskId} was changed${by ? ` by ${by}` : ''} while you were editing (now version ${fresh?.version ?? '?'}). Your ${what} was not applied; the card below is the current one. Make the change again if it still applies.`,
        { taskId, ...(fresh ? { fresh } : {}) },
      );
      return;
    }
    await this.refresh([taskId]).catch(() => undefined);
    this.say('error', `${what} failed: ${(err as Error).message}`, { taskId });
  }

  /** Moves a card to `status` at `index` (0 = top), optimistically, with the version it was seen at. */
  async move(id: string, status: string, index: number): Promise<boolean> {
    const found = this.findCard(id);
    const to = this.lane(status);
    if (!found || !to) return false;
    const card = found.card;
    found.lane.cards.splice(found.index, 1);
    const at = Math.max(0, Math.min(index, to.cards.length));
    to.cards.splice(at, 0, { ...card, status });
    if (found.lane !== to) {
      found.lane.total--;
      to.total++;
    }
    this.changed();
    // With filters on, the visible index is not the lane index: the card goes to the end of the lane.
    const body: Record<string, unknown> = { status, expectedVersion: card.version };
    if (!this.filtered) body.position = at;
    try {
      const { task } = await this.api.send<{ task: Task }>('PATCH', `/tasks/${encodeURIComponent(id)}`, body);
      // Where the server put it (a live re-read may have moved the card meanwhile).
      this.place(id, task);
      this.changed();
      return true;
    } catch (err) {
      await this.failed(err, id, `move to ${to.status.displayName}`);
      return false;
    }
  }

  async quickAdd(status: string, title: string): Promise<Task | null> {
    if (!this.project) return null;
    try {
      const { task } = await this.api.send<{ task: Task }>('POST', '/tasks', { project: this.project.key, title, status });
      await this.refresh([task.id], new Set([status]));
      return task;
    } catch (err) {
      this.say('error', `Could not add the card: ${(err as Error).message}`);
      return null;
    }
  }

  /** Simulates a dropped connection (the reconnect path resumes with Last-Event-ID). */
  dropConnection(): void {
    this.feed.drop();
  }
}
