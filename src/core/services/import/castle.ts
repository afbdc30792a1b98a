/**
 * Castle's castle.db (seeds 000 and 001): tasks, labels, label assignments and research reviews,
 * into castle-template projects (one per project_path) as the castle profile shows them: states as
 * statuses, branch/worktree/PR/issue as links, research content and reviews as research comments,
 * close reasons as closeReason. Columns a Castle version lacks are read as empty.
 */
import { statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { KINDS, PrState, type Kind, type Links } from '../../model/task.js';
import { templateStatusNames } from '../../model/workflow.js';
import { fitLabels, fitTitle, importError, isoTime, type ForeignSqlite, type ImportItem, type IncomingTask, type SourceAt } from './model.js';
import { keyFrom } from '../../rules/project-key.js';

// The castle template's lanes, registered by its profile (src/profiles/castle/template.ts).
const STATES: readonly string[] = templateStatusNames('castle');

type Row = Record<string, unknown>;
const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

const TASK_COLUMNS = [
  'id',
  'title',
  'description',
  'state',
  'kind',
  'project_path',
  'research_content',
  'research_agent_id',
  'implement_agent_id',
  'github_issue_number',
  'github_repo',
  'close_reason',
  'worktree_path',
  'branch_name',
  'pr_url',
  'pr_number',
  'pr_state',
  'created_at',
  'updated_at',
];

/** What a linked database's sync passes to keep its work small when few rows changed (links/sources/castle.ts). */
export interface CastleReadOptions {
  /** A row it cannot read is skipped and reported here instead of stopping the read. */
  onBad?: (err: Error) => void;
  /** Tasks by the text of their row, labels and reviews: a row read before is not converted again. */
  cache?: Map<string, IncomingTask>;
}

/**
 * Each row arrives as one JSON text (the SQLite binding's cost is per value returned), which also
 * keys the cache of a linked database's sync: an unchanged row yields the task it made last time.
 */
export async function* readCastle(path: string, open: ((file: string) => ForeignSqlite) | undefined, project: string | undefined, opts: CastleReadOptions = {}): AsyncGenerator<ImportItem> {
  const { onBad, cache } = opts;
  const file = statSync(path).isDirectory() ? join(path, 'castle.db') : path;
  if (!open) throw importError({ file }, null, 'reading castle.db needs SQLite access, which this entry point does not provide');
  let db: ForeignSqlite;
  try {
    db = open(file);
  } catch (err) {
    throw importError({ file }, null, `cannot open it as SQLite (${(err as Error).message})`);
  }
  try {
    if (db.columns('tasks').length === 0) throw importError({ file }, 'tasks', 'no "tasks" table: this is not a Castle database');
    const have = new Set(db.columns('tasks'));
    const cols = TASK_COLUMNS.map((c) => (have.has(c) ? c : 'NULL')).join(', ');
    const packed = db.all(`SELECT id, json_array(rowid, ${cols}) AS packed FROM tasks ORDER BY created_at, rowid`);
    const labels = new Map<string, string[]>();
    if (db.columns('task_label_assignments').length && db.columns('task_labels').length) {
      for (const r of db.all('SELECT a.task_id AS task_id, l.name AS name FROM task_label_assignments a JOIN task_labels l ON l.id = a.label_id ORDER BY l.name')) {
        const list = labels.get(String(r.task_id)) ?? [];
        list.push(String(r.name));
        labels.set(String(r.task_id), list);
      }
    }
    const reviews = new Map<string, Row[]>();
    const reviewCols = db.columns('research_reviews');
    if (reviewCols.length) {
      const order = reviewCols.includes('created_at') ? 'created_at, rowid' : 'rowid';
      for (const r of db.all(`SELECT rowid AS _row, * FROM research_reviews ORDER BY ${order}`)) {
        const list = reviews.get(String(r.task_id)) ?? [];
        list.push(r);
        reviews.set(String(r.task_id), list);
      }
    }
    const projects = new Map<string, string>();
    const keys = new Set<string>();
    const fresh = cache ? new Map<string, IncomingTask>() : undefined;
    for (const p of packed) {
      const line = String(p.packed);
      const rowLabels = labels.get(String(p.id)) ?? [];
      const rowReviews = reviews.get(String(p.id)) ?? [];
      const key = cache ? `${line}\u0000${rowLabels.length ? JSON.stringify(rowLabels) : ''}\u0000${rowReviews.length ? JSON.stringify(rowReviews) : ''}` : '';
      const cached = cache?.get(key);
      if (cached) {
        // Its project was yielded when the row was first read; a new project path is a changed row.
        if (!projects.has(cached.projectRef)) projects.set(cached.projectRef, '');
        fresh?.set(key, cached);
        yield cached;
        continue;
      }
      const values = JSON.parse(line) as unknown[];
      const r: Row = { _row: values[0] };
      for (const [i, c] of TASK_COLUMNS.entries()) r[c] = values[i + 1];
      const at: SourceAt = { file, line: Number(r._row) };
      const path = text(r.project_path) ?? '';
      if (!projects.has(path)) {
        let key = project ?? keyFrom(basename(path), 'CASTLE');
        for (let n = 2; !project && keys.has(key); n++) key = `${key.slice(0, 9)}${String.fromCharCode(64 + Math.min(n, 26))}`;
        keys.add(key);
        projects.set(path, key);
        yield {
          type: 'project',
          at,
          ref: path,
          key,
          name: path ? basename(path) : 'Castle',
          description: path ? `Imported from Castle (${path})` : 'Imported from Castle',
          root: path || null,
          aliases: [],
          template: 'castle',
          archivedAt: null,
        };
      }
      let task: IncomingTask;
      try {
        task = castleTask(at, r, path, rowLabels, rowReviews);
      } catch (err) {
        if (!onBad) throw err;
        onBad(err as Error);
        continue;
      }
      fresh?.set(key, task);
      yield task;
    }
    if (cache && fresh) {
      cache.clear();
      for (const [k, v] of fresh) cache.set(k, v);
    }
  } finally {
    db.close();
  }
}

function castleTask(at: SourceAt, r: Row, projectRef: string, labels: string[], reviews: Row[]): IncomingTask {
  const id = text(r.id);
  if (!id) throw importError(at, 'id', 'a Castle task needs an id');
  const state = text(r.state) ?? 'new';
  if (!STATES.includes(state)) throw importError(at, 'state', `"${state}" is not a Castle state (${STATES.join(', ')})`);
  const kind = (text(r.kind) ?? 'task') as Kind;
  if (!KINDS.includes(kind)) throw importError(at, 'kind', `"${kind}" is not a Castle kind (feature, bug, chore, spike)`);
  const links: Links = {};
  if (text(r.branch_name)) links.branch = text(r.branch_name)!;
  if (text(r.worktree_path)) links.worktree = text(r.worktree_path)!;
  if (text(r.pr_url)) links.prUrl = text(r.pr_url)!;
  if (Number(r.pr_number) > 0) links.prNumber = Number(r.pr_number);
  if (text(r.pr_state) && PrState.safeParse(text(r.pr_state)).success) links.prState = text(r.pr_state) as Links['prState'];
  if (Number(r.github_issue_number) > 0) links.issue = `${text(r.github_repo) ?? ''}#${Number(r.github_issue_number)}`;
  else if (text(r.github_repo)) links.issue = text(r.github_repo)!;
  const createdAt = isoTime(at, 'created_at', r.created_at);
  const updatedAt = isoTime(at, 'updated_at', r.updated_at) ?? createdAt;
  const comments: IncomingTask['comments'] = [];
  if (text(r.research_content)) {
    comments.push({
      id: `castle-research-${id}`,
      author: text(r.research_agent_id) ?? 'castle',
      kind: 'research',
      body: text(r.research_content)!,
      createdAt: updatedAt ?? createdAt ?? new Date(0).toISOString(),
    });
  }
  for (const rv of reviews) {
    const body = text(rv.content) ?? text(rv.comment) ?? text(rv.feedback) ?? text(rv.body) ?? text(rv.review);
    if (!body) continue;
    const status = text(rv.status) ?? text(rv.decision);
    comments.push({
      id: `castle-review-${text(rv.id) ?? String(rv._row)}`,
      author: text(rv.reviewer) ?? text(rv.author) ?? text(rv.agent_id) ?? 'castle',
      kind: 'research',
      body: status ? `Research review (${status}): ${body}` : `Research review: ${body}`,
      createdAt: isoTime(at, 'research_reviews.created_at', rv.created_at) ?? createdAt ?? new Date(0).toISOString(),
    });
  }
  return {
    type: 'task',
    at,
    projectRef,
    sourceId: id,
    title: fitTitle(String(r.title ?? ''), `Castle task ${id}`),
    description: text(r.description) ?? '',
    status: state,
    kind,
    priority: 'none',
    score: 0,
    labels: fitLabels(labels),
    assignee: text(r.implement_agent_id) ? `agent:${text(r.implement_agent_id)}` : null,
    substatus: null,
    slug: null,
    claim: null,
    parent: null,
    blockedBy: [],
    checklist: [],
    comments,
    links,
    anchors: [],
    closeReason: text(r.close_reason),
    origin: null,
    documentPath: null,
    ...(createdAt ? { createdAt } : {}),
    ...(updatedAt ? { updatedAt } : {}),
  };
}
