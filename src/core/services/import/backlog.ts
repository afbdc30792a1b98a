/**
 * Backlog.md's `backlog/` folder (MrLesk/Backlog.md; fixtures made by the backlog CLI): config.yml's
 * statuses become the workflow; tasks/, completed/ and archive/tasks/ hold tasks (markdown with front
 * matter and marked sections), drafts/ drafts, decisions/ and docs/ the project's records.
 * Acceptance criteria and Definition of Done become checklist items, dependencies blockedBy,
 * parent_task_id the parent, ordinal the lane position, a milestone a label.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Priority } from '../../model/task.js';
import type { Category, Status } from '../../model/workflow.js';
import { keyFrom } from '../../rules/project-key.js';
import { parseFrontMatter } from './front-matter.js';
import { fitItem, fitLabels, fitTitle, importError, isoTime, reader, type ImportItem, type IncomingProject, type IncomingTask, type SourceAt } from './model.js';
import { readBounded } from './read-bounded.js';

export const statusName = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40) || 'status';

function workflow(names: string[]): Status[] {
  const statuses = names.map((n, i): Status => {
    const lower = n.toLowerCase();
    const category: Category = i === 0 ? 'todo' : i === names.length - 1 || lower === 'done' ? 'done' : lower.includes('block') ? 'blocked' : 'in_progress';
    return { name: statusName(n), displayName: n.slice(0, 60), color: category === 'done' ? '#10b981' : category === 'todo' ? '#3b82f6' : '#f59e0b', category, position: 0 };
  });
  statuses.unshift({ name: 'draft', displayName: 'Draft', color: '#9ca3af', category: 'backlog', position: 0 });
  statuses.push({ name: 'canceled', displayName: 'Canceled', color: '#6b7280', category: 'canceled', position: 0 });
  return statuses.map((s, position) => ({ ...s, position }));
}

/** The text between a section's markers, else under its heading until the next heading. */
export function section(body: string, marker: string, heading: string): string {
  const m = new RegExp(`<!-- ${marker}:BEGIN -->\\n?([\\s\\S]*?)\\n?<!-- ${marker}:END -->`).exec(body);
  if (m) return m[1]!.trim();
  const h = new RegExp(`^## ${heading}\\s*\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(body);
  return h ? h[1]!.replace(/<!--[\s\S]*?-->/g, '').trim() : '';
}

const items = (text: string) =>
  text
    .split('\n')
    .map((l) => /^- \[([ xX])\] (?:#\d+ )?(.+)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ checked: m[1] !== ' ', text: fitItem(m[2]!) }));

function mdFiles(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    : [];
}

/** The backlog/ folder of a path (the folder itself, or the repository holding it). */
export function backlogRoot(path: string): string {
  return existsSync(join(path, 'backlog', 'config.yml')) || (statSync(path).isDirectory() && existsSync(join(path, 'backlog', 'tasks'))) ? join(path, 'backlog') : path;
}

/** Where a task file lives, as the importer names it: tasks/, completed/, archive/tasks/, drafts/. */
export const TASK_DIRS = [
  ['tasks', 'task'],
  ['completed', 'completed'],
  ['archive/tasks', 'archived'],
  ['drafts', 'draft'],
] as const;

/** config.yml's project and workflow, and the milestones' titles by id. */
export function backlogConfig(root: string, project: string | undefined): { project: IncomingProject; ctx: BacklogCtx } {
  const configFile = join(root, 'config.yml');
  const config = existsSync(configFile) ? parseFrontMatter(`---\n${readBounded(configFile)}\n---\n`) : { data: {} as Record<string, unknown> };
  if ('error' in config && config.error) throw importError({ file: configFile, line: config.error.line - 1 }, config.error.field, config.error.problem);
  const cfg = reader({ file: configFile }, config.data);
  const names = cfg.strs('statuses').length ? cfg.strs('statuses') : ['To Do', 'In Progress', 'Done'];
  const statuses = workflow(names);
  const projectName = cfg.strOr('project_name', basename(join(root, '..'))) ?? 'Backlog';
  const milestones = new Map<string, string>();
  for (const f of mdFiles(join(root, 'milestones'))) {
    const { data } = parseFrontMatter(readBounded(join(root, 'milestones', f)));
    if (typeof data.id === 'string') milestones.set(data.id.toLowerCase(), typeof data.title === 'string' ? data.title : data.id);
  }
  return {
    project: {
      type: 'project',
      at: { file: configFile },
      ref: 'backlog',
      key: project ?? keyFrom(projectName, 'BACKLOG'),
      name: projectName.slice(0, 100),
      description: `Imported from Backlog.md (${root})`,
      root: basename(root) === 'backlog' ? resolve(root, '..') : null,
      aliases: [],
      statuses,
      template: 'default',
      archivedAt: null,
    },
    ctx: { statuses, milestones },
  };
}

export async function* readBacklog(path: string, project: string | undefined): AsyncGenerator<ImportItem> {
  const root = backlogRoot(path);
  const { project: p, ctx } = backlogConfig(root, project);
  yield p;
  for (const [dir, kind] of TASK_DIRS) {
    for (const f of mdFiles(join(root, dir))) yield readBacklogTask({ file: join(root, dir, f) }, kind, ctx);
  }
  for (const f of mdFiles(join(root, 'decisions'))) yield record({ file: join(root, 'decisions', f) }, 'decision', ctx);
  for (const f of mdFiles(join(root, 'docs'))) yield record({ file: join(root, 'docs', f) }, 'doc', ctx);
}

export type BacklogCtx = { statuses: Status[]; milestones: Map<string, string> };
type Ctx = BacklogCtx;

function read(at: SourceAt, text?: string) {
  const { data, content, error } = parseFrontMatter(text ?? readBounded(at.file));
  if (error) throw importError({ file: at.file, line: error.line }, error.field, error.problem);
  return { fm: reader(at, data), body: content };
}

/** One task file (its text when the caller read it already). */
export function readBacklogTask(at: SourceAt, where: 'task' | 'completed' | 'archived' | 'draft', ctx: Ctx, text?: string): IncomingTask {
  const { fm, body } = read(at, text);
  const id = fm.str('id').toLowerCase();
  const raw = fm.strOr('status', '') ?? '';
  const status = where === 'draft' ? 'draft' : ctx.statuses.find((s) => s.name === statusName(raw))?.name;
  if (!status) throw importError(at, 'status', `"${raw}" is not one of config.yml's statuses (${ctx.statuses.map((s) => s.displayName).join(', ')})`);
  const priority = fm.strOr('priority', null);
  if (priority !== null && !['high', 'medium', 'low'].includes(priority)) throw importError(at, 'priority', `"${priority}" is not a Backlog.md priority (high, medium, low)`);
  const assignees = (Array.isArray(fm.obj.assignee) ? fm.obj.assignee.map(String) : fm.obj.assignee ? [String(fm.obj.assignee)] : []).map((a) => a.replace(/^@/, ''));
  const milestone = fm.strOr('milestone', null);
  const labels = [...fm.strs('labels'), ...(milestone ? [`milestone:${ctx.milestones.get(milestone.toLowerCase()) ?? milestone}`] : [])];
  const parts = [section(body, 'SECTION:DESCRIPTION', 'Description')];
  for (const [marker, heading] of [
    ['SECTION:PLAN', 'Implementation Plan'],
    ['SECTION:NOTES', 'Implementation Notes'],
    ['SECTION:FINAL_SUMMARY', 'Final Summary'],
  ] as const) {
    const text = section(body, marker, heading);
    if (text) parts.push(`## ${heading}\n\n${text}`);
  }
  const dod = items(section(body, 'DOD', 'Definition of Done')).map((i) => ({ ...i, text: fitItem(`DoD: ${i.text}`) }));
  const createdAt = isoTime(at, 'created_date', fm.obj.created_date);
  const updatedAt = isoTime(at, 'updated_date', fm.obj.updated_date) ?? createdAt;
  const ordinal = fm.numOr('ordinal', undefined);
  return {
    type: 'task',
    at,
    projectRef: 'backlog',
    sourceId: id,
    title: fitTitle(fm.strOr('title', '') ?? '', id),
    description: parts.filter(Boolean).join('\n\n'),
    status,
    kind: 'task',
    priority: (priority ?? 'none') as Priority,
    score: 0,
    ...(ordinal !== undefined ? { position: ordinal } : {}),
    labels: fitLabels(labels),
    assignee: assignees.length ? assignees.join(', ').slice(0, 100) : null,
    substatus: null,
    slug: null,
    claim: null,
    parent: fm.strOr('parent_task_id', null)?.toLowerCase() ?? null,
    blockedBy: fm.strs('dependencies').map((d) => ({ ref: d.toLowerCase() })),
    checklist: [...items(section(body, 'AC', 'Acceptance Criteria')), ...dod],
    comments: [],
    links: {},
    anchors: [],
    closeReason: null,
    origin: null,
    documentPath: null,
    ...(createdAt ? { createdAt } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    ...(where === 'archived' ? { archivedAt: updatedAt ?? null } : {}),
  };
}

const DECISION_STATUS: Record<string, 'todo' | 'done' | 'canceled'> = { proposed: 'todo', accepted: 'done', rejected: 'canceled', superseded: 'canceled' };

/** A decision (a spike labelled "decision", resolved when accepted or rejected) or a doc (a done chore labelled "doc" whose document path is the file). */
function record(at: SourceAt, what: 'decision' | 'doc', ctx: Ctx): IncomingTask {
  const { fm, body } = read(at);
  const id = fm.str('id').toLowerCase();
  const category = what === 'doc' ? 'done' : (DECISION_STATUS[(fm.strOr('status', 'proposed') ?? 'proposed').toLowerCase()] ?? 'todo');
  const status = ctx.statuses.find((s) => s.category === category)!.name;
  const createdAt = isoTime(at, what === 'doc' ? 'created_date' : 'date', what === 'doc' ? fm.obj.created_date : fm.obj.date);
  return {
    type: 'task',
    at,
    projectRef: 'backlog',
    sourceId: id,
    title: fitTitle(fm.strOr('title', '') ?? '', id),
    description: body.trim(),
    status,
    kind: what === 'doc' ? 'chore' : 'spike',
    priority: 'none',
    score: 0,
    labels: [what],
    assignee: null,
    substatus: null,
    slug: null,
    claim: null,
    parent: null,
    blockedBy: [],
    checklist: [],
    comments: [],
    links: {},
    anchors: [],
    closeReason: null,
    origin: null,
    documentPath: what === 'doc' ? at.file.slice(-2000) : null,
    ...(createdAt ? { createdAt, updatedAt: createdAt } : {}),
  };
}
