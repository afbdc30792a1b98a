/**
 * A DevPlanner workspace (seed 004; illogical/DevPlanner's ProjectService and MarkdownService): one
 * folder per project with _project.json, lane folders with _order.json, and cards as markdown files
 * with YAML front matter whose `- [ ]` lines are the card's tasks. Each project becomes a
 * devplanner-template project (alias = its slug) whose cards the devplanner profile shows as before:
 * slug = task slug, lane = status, front matter status = substatus, tasks = checklist, lane order = position.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { templateCategories, templateStatuses, type Category, type Status } from '../../model/workflow.js';
import { parseFrontMatter } from './front-matter.js';
import { fitItem, fitLabels, fitTitle, importError, isoTime, reader, type ImportItem, type IncomingProject, type IncomingTask, type SourceAt } from './model.js';
import { keyFrom } from '../../rules/project-key.js';
import { readBounded } from './read-bounded.js';

export const CATEGORY: Readonly<Record<string, Category>> = templateCategories('devplanner');
export const TASK_LINE = /^\s*-\s+\[([ xX])\]\s+(.+)$/;

export const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100) || 'card';

function readJson(file: string): unknown {
  try {
    return JSON.parse(readBounded(file));
  } catch (err) {
    throw importError({ file }, null, `not valid JSON (${(err as Error).message})`);
  }
}

/** The card's tasks, and its content without them (an emptied "## Tasks" heading goes too). */
export function splitCard(content: string): { description: string; checklist: Array<{ text: string; checked: boolean }> } {
  const checklist: Array<{ text: string; checked: boolean }> = [];
  const kept: string[] = [];
  for (const line of content.split('\n')) {
    const m = TASK_LINE.exec(line);
    if (m) checklist.push({ checked: m[1]!.toLowerCase() === 'x', text: fitItem(m[2]!) });
    else kept.push(line);
  }
  const description = kept
    .join('\n')
    .trimEnd()
    .replace(/(?:^|\n+)## Tasks$/, '')
    .trim();
  return { description, checklist };
}

/** The project folders of a workspace (a folder holding _project.json is one project itself). */
export function projectDirs(root: string): string[] {
  if (existsSync(join(root, '_project.json'))) return [root];
  return readdirSync(root)
    .filter((d) => !d.startsWith('.') && existsSync(join(root, d, '_project.json')))
    .sort()
    .map((d) => join(root, d));
}

/** A project folder's _project.json as an incoming project, and its lanes (folder names) in order. */
export function readProjectConfig(dir: string, key: string | undefined): { project: IncomingProject; lanes: string[] } {
  const slug = dir.split(/[\\/]/).pop()!;
  const cfgFile = join(dir, '_project.json');
  const cfg = reader({ file: cfgFile }, readJson(cfgFile));
  const lanes = cfg.has('lanes') ? Object.keys(cfg.field('lanes').obj) : Object.keys(CATEGORY);
  const template = templateStatuses('devplanner');
  const statuses: Status[] = lanes.map((lane, position) => {
    const known = template.find((s) => s.name === lane);
    const conf = cfg.has('lanes') ? cfg.field('lanes').field(lane) : undefined;
    const color = conf?.strOr('color', undefined);
    return {
      name: slugOf(lane).slice(0, 40),
      displayName: (conf?.strOr('displayName', undefined) ?? known?.displayName ?? lane).slice(0, 60),
      color: color && /^#[0-9a-fA-F]{6}$/.test(color) ? color : (known?.color ?? '#64748b'),
      category: CATEGORY[lane] ?? 'todo',
      position,
    };
  });
  for (const c of ['todo', 'done'] as const) if (!statuses.some((s) => s.category === c)) statuses.push({ ...template.find((s) => s.category === c)!, position: statuses.length });
  const updated = isoTime({ file: cfgFile }, 'updated', cfg.obj.updated);
  const created = isoTime({ file: cfgFile }, 'created', cfg.obj.created);
  const project: IncomingProject = {
    type: 'project',
    at: { file: cfgFile },
    ref: slug,
    key: key ?? keyFrom(cfg.strOr('prefix', '') ?? '', keyFrom(cfg.strOr('name', slug) ?? slug, 'PLAN')),
    name: (cfg.strOr('name', slug) ?? slug).slice(0, 100),
    description: cfg.strOr('description', '') ?? '',
    root: null,
    aliases: [slug.toLowerCase()],
    statuses,
    template: 'devplanner',
    archivedAt: cfg.bool('archived', false) ? (updated ?? new Date(0).toISOString()) : null,
    ...(created ? { createdAt: created } : {}),
    ...(updated ? { updatedAt: updated } : {}),
  };
  return { project, lanes };
}

/** A lane's card files first to last: those _order.json lists, then the rest by name. */
export function laneFiles(laneDir: string): string[] {
  if (!existsSync(laneDir) || !statSync(laneDir).isDirectory()) return [];
  const orderFile = join(laneDir, '_order.json');
  const order = existsSync(orderFile) ? reader({ file: orderFile }, { order: readJson(orderFile) }).strs('order') : [];
  const files = readdirSync(laneDir).filter((f) => f.endsWith('.md') && !f.startsWith('.'));
  return [...order.filter((f) => files.includes(f)), ...files.filter((f) => !order.includes(f)).sort()];
}

export async function* readDevPlanner(root: string, project: string | undefined): AsyncGenerator<ImportItem> {
  const keys = new Set<string>();
  for (const dir of projectDirs(root)) {
    const { project: p, lanes } = readProjectConfig(dir, project);
    for (let n = 2; !project && keys.has(p.key); n++) p.key = `${p.key.slice(0, 9)}${String.fromCharCode(64 + Math.min(n, 26))}`;
    keys.add(p.key);
    yield p;
    for (const lane of lanes) {
      const laneDir = join(dir, lane);
      for (const [i, f] of laneFiles(laneDir).entries()) yield readCard({ file: join(laneDir, f) }, p.ref, slugOf(lane).slice(0, 40), f, i + 1);
    }
  }
}

/** One card file as an incoming task: slug from the file name, lane as status, tasks as checklist. */
export function readCard(at: SourceAt, projectSlug: string, lane: string, filename: string, position: number, text?: string): IncomingTask {
  const raw = text ?? readBounded(at.file);
  const { data, content, error } = parseFrontMatter(raw);
  if (error) throw importError({ file: at.file, line: error.line }, error.field, error.problem);
  const fm = reader(at, data);
  const slug = slugOf(filename.replace(/\.md$/, ''));
  const { description, checklist } = splitCard(content);
  const status = fm.strOr('status', null);
  const priority = fm.strOr('priority', null);
  if (priority !== null && !['low', 'medium', 'high'].includes(priority)) throw importError(at, 'priority', `"${priority}" is not a DevPlanner priority (low, medium, high)`);
  const tags = fm.obj.tags === undefined || fm.obj.tags === null ? [] : Array.isArray(fm.obj.tags) ? fm.obj.tags.map(String) : [String(fm.obj.tags)];
  const createdAt = isoTime(at, 'created', fm.obj.created);
  const updatedAt = isoTime(at, 'updated', fm.obj.updated) ?? createdAt;
  return {
    type: 'task',
    at,
    projectRef: projectSlug,
    sourceId: `${projectSlug}/${slug}`,
    title: fitTitle(fm.strOr('title', '') ?? '', slug),
    description,
    status: lane,
    kind: 'task',
    priority: (priority ?? 'none') as IncomingTask['priority'],
    score: 0,
    position,
    labels: fitLabels(tags),
    assignee: fm.strOr('assignee', null),
    substatus: status
      ? status
          .toLowerCase()
          .replace(/[^a-z0-9_-]+/g, '-')
          .slice(0, 40)
      : null,
    slug,
    claim: null,
    parent: null,
    blockedBy: [],
    checklist,
    comments: [],
    links: {},
    anchors: [],
    closeReason: null,
    origin: null,
    documentPath: null,
    ...(createdAt ? { createdAt } : {}),
    ...(updatedAt ? { updatedAt } : {}),
  };
}
