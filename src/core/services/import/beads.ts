/**
 * Beads' `.beads/issues.jsonl` (steveyegge/beads, internal/types/types.go): one issue per line with
 * its labels, typed dependencies and comments. blocks → blockedBy, parent-child → parent; related
 * and discovered-from have no Cairn edge and are kept as a "Beads links" section of the description.
 */
import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Kind, Priority } from '../../model/task.js';
import { fitLabels, fitTitle, importError, isoTime, reader, type ImportItem, type IncomingTask, type ProgressFn } from './model.js';
import { keyFrom } from '../../rules/project-key.js';
import { boundedLines } from './read-bounded.js';

const KIND: Record<string, Kind> = { bug: 'bug', feature: 'feature', task: 'task', epic: 'epic', chore: 'chore' };
/** Beads 0 is critical, 4 is backlog. */
const PRIORITY: Priority[] = ['urgent', 'high', 'medium', 'low', 'none'];
const STATUS: Record<string, string> = { open: 'todo', in_progress: 'in_progress', blocked: 'blocked', closed: 'done', deferred: 'backlog', tombstone: 'canceled' };

export async function* readBeads(path: string, project: string | undefined, progress?: ProgressFn): AsyncGenerator<ImportItem> {
  const file = statSync(path).isDirectory() ? (basename(path) === '.beads' ? resolve(path, 'issues.jsonl') : resolve(path, '.beads', 'issues.jsonl')) : path;
  const repo = basename(dirname(resolve(dirname(file))));
  const size = statSync(file).size || 1;
  let started = false;
  for await (const { text, line: n, bytes } of boundedLines(file)) {
    if (n % 5000 === 0) progress?.(bytes / size);
    if (!text.trim()) continue;
    const at = { file, line: n };
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch (err) {
      throw importError(at, null, `not valid JSON (${(err as Error).message})`);
    }
    const r = reader(at, o);
    const id = r.str('id');
    if (!started) {
      started = true;
      const prefix = id.includes('-') ? id.slice(0, id.lastIndexOf('-')) : repo;
      yield {
        type: 'project',
        at,
        ref: 'beads',
        key: project ?? keyFrom(prefix, keyFrom(repo, 'BEADS')),
        name: repo || 'Beads',
        description: `Imported from Beads (${file})`,
        root: basename(dirname(resolve(file))) === '.beads' ? dirname(dirname(resolve(file))) : null,
        aliases: [prefix],
        template: 'default',
        archivedAt: null,
      };
    }
    yield beadsIssue(at, r, id);
  }
  progress?.(1);
}

function beadsIssue(at: { file: string; line: number }, r: ReturnType<typeof reader>, id: string): IncomingTask {
  const status = r.str('status');
  const mapped = STATUS[status];
  const priority = r.numOr('priority', 2);
  if (!Number.isInteger(priority) || priority < 0 || priority > 4) throw importError(at, 'priority', `expected 0–4, got ${priority}`);
  const type = r.strOr('issue_type', 'task');
  const kind = KIND[type];
  if (!kind) throw importError(at, 'issue_type', `"${type}" is not a Beads issue type (bug, feature, task, epic, chore)`);
  let parent: string | null = null;
  const blockedBy: IncomingTask['blockedBy'] = [];
  const other: string[] = [];
  r.arr('dependencies').forEach((d, i) => {
    const f = reader(at, d, `dependencies[${i}]`);
    const target = f.str('depends_on_id');
    const depType = f.oneOf('type', ['blocks', 'parent-child', 'related', 'discovered-from'] as const, 'blocks');
    const when = isoTime(at, `dependencies[${i}].created_at`, f.obj.created_at);
    if (depType === 'blocks') blockedBy.push({ ref: target, ...(when ? { at: when } : {}) });
    else if (depType === 'parent-child') parent = target;
    else other.push(`- ${depType}: ${target}`);
  });
  const sections = [r.strOr('description', '')];
  for (const [field, title] of [
    ['design', 'Design'],
    ['acceptance_criteria', 'Acceptance criteria'],
    ['notes', 'Notes'],
  ] as const) {
    const v = r.strOr(field, '');
    if (v) sections.push(`## ${title}\n\n${v}`);
  }
  if (other.length) sections.push(`## Beads links\n\n${other.join('\n')}`);
  const createdAt = isoTime(at, 'created_at', r.obj.created_at);
  const updatedAt = isoTime(at, 'updated_at', r.obj.updated_at) ?? createdAt;
  const closedAt = isoTime(at, 'closed_at', r.obj.closed_at);
  const deletedAt = status === 'tombstone' ? (isoTime(at, 'deleted_at', r.obj.deleted_at) ?? updatedAt ?? null) : null;
  const comments = r.arr('comments').map((c, i) => {
    const f = reader(at, c, `comments[${i}]`);
    return {
      id: `beads-${id}-${String(f.obj.id ?? i)}`,
      author: f.strOr('author', 'beads'),
      kind: 'comment' as const,
      body: f.str('text'),
      createdAt: isoTime(at, `comments[${i}].created_at`, f.obj.created_at) ?? createdAt ?? new Date(0).toISOString(),
    };
  });
  const ref = r.strOr('external_ref', null);
  return {
    type: 'task',
    at,
    projectRef: 'beads',
    sourceId: id,
    title: fitTitle(r.str('title'), id),
    description: sections.filter(Boolean).join('\n\n'),
    status: mapped ?? 'todo',
    kind,
    priority: PRIORITY[priority]!,
    score: 0,
    labels: fitLabels(r.strs('labels')),
    assignee: r.strOr('assignee', null) || null,
    // A custom Beads status survives as the sub-state (lower-case letters, digits, "-" and "_").
    substatus: mapped
      ? null
      : status
          .toLowerCase()
          .replace(/[^a-z0-9_-]+/g, '-')
          .slice(0, 40) || null,
    slug: null,
    claim: null,
    parent,
    blockedBy,
    checklist: [],
    comments,
    links: ref ? { issue: ref } : {},
    anchors: [],
    closeReason: r.strOr('close_reason', null) || null,
    origin: null,
    documentPath: null,
    ...(createdAt ? { createdAt } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    completedAt: status === 'closed' ? (closedAt ?? updatedAt ?? null) : null,
    deletedAt,
  };
}
