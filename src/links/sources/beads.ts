/**
 * Beads' issues.jsonl as a linked source: one issue per line (steveyegge/beads internal/types). A
 * write rewrites the file as `bd export` writes it, one JSON object per line in the file's order,
 * each line keeping the keys Cairn does not know; a new issue takes the next id of the file's
 * prefix, and a deleted one becomes a tombstone, as bd deletes (so a sync never brings it back).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Kind, Priority } from '../../core/model/task.js';
import { readBeads } from '../../core/services/import/beads.js';
import type { Held, HeldField, LinkedTask, LinkSource, SourceRead, WriteBatch, WriteResult } from '../source.js';
import { SingleFileSource } from './single-file.js';
import { checkUnmoved, replaceFile } from './atomic.js';

const FIELDS: readonly HeldField[] = ['title', 'description', 'status', 'kind', 'priority', 'labels', 'assignee', 'closeReason', 'links', 'parent', 'blockedBy'];
const TO_BEADS: Record<string, string> = { todo: 'open', in_progress: 'in_progress', blocked: 'blocked', done: 'closed', backlog: 'deferred', canceled: 'tombstone' };
const FROM_BEADS: Record<string, string> = { open: 'todo', in_progress: 'in_progress', blocked: 'blocked', closed: 'done', deferred: 'backlog', tombstone: 'canceled' };
const BY_CATEGORY: Record<string, string> = { todo: 'open', backlog: 'deferred', in_progress: 'in_progress', blocked: 'blocked', done: 'closed', canceled: 'tombstone' };
const PRIORITIES: Priority[] = ['urgent', 'high', 'medium', 'low', 'none'];
const TYPES: Kind[] = ['bug', 'feature', 'task', 'epic', 'chore'];
const SECTIONS = [
  ['design', 'Design'],
  ['acceptance_criteria', 'Acceptance criteria'],
  ['notes', 'Notes'],
  ['', 'Beads links'],
] as const;

/** The description as Beads' fields: its text, design, acceptance criteria and notes (the "Beads links" section is read-only). */
function split(description: string): Record<string, string> {
  const heads = SECTIONS.map(([field, title]) => ({ field, at: description.search(new RegExp(`(^|\\n)## ${title}\\n`)), title }))
    .filter((h) => h.at >= 0)
    .sort((a, b) => a.at - b.at);
  const out: Record<string, string> = { description: (heads.length ? description.slice(0, heads[0]!.at) : description).trim() };
  for (const [i, h] of heads.entries())
    out[h.field || 'links'] = description
      .slice(h.at, heads[i + 1]?.at ?? description.length)
      .replace(new RegExp(`^\\n?## ${h.title}\\n`), '')
      .trim();
  return out;
}

function compose(p: Record<string, string>): string {
  return [p.description ?? '', ...SECTIONS.map(([f, t]) => (p[f || 'links'] ? `## ${t}\n\n${p[f || 'links']}` : ''))].filter(Boolean).join('\n\n');
}

/** A status as Beads stores it: its own name when Beads has it, else by its category. */
const beadsStatus = (h: Held): string => TO_BEADS[h.status] ?? BY_CATEGORY[h.category ?? 'todo'] ?? 'open';

export function beadsView(h: Held): Held {
  return {
    ...h,
    title: h.title.trim(),
    description: compose(split(h.description)),
    status: FROM_BEADS[beadsStatus(h)] ?? 'todo',
    kind: TYPES.includes(h.kind) ? h.kind : 'task',
    labels: [...new Set(h.labels)].sort(),
    assignee: h.assignee || null,
    closeReason: h.closeReason || null,
    links: h.links.issue ? { issue: h.links.issue } : {},
  };
}

type Issue = Record<string, any>;

export class BeadsSource extends SingleFileSource implements LinkSource {
  readonly kind = 'beads' as const;
  readonly fields = FIELDS;
  readonly label: string;
  readonly repository: string;

  constructor(path: string) {
    super(path);
    this.label = `Beads' ${path}`;
    this.repository = basename(dirname(path)) === '.beads' ? dirname(dirname(path)) : dirname(path);
  }

  view = beadsView;

  read(): Promise<SourceRead> {
    return this.exists() ? this.collect(readBeads(resolve(this.path), undefined), this.nothing(), true) : Promise.resolve(this.nothing());
  }

  write(batch: WriteBatch): WriteResult {
    checkUnmoved(this.path, '', batch.stamps.get(''));
    const lines = readFileSync(this.path, 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    const issues: Issue[] = lines.map((l) => JSON.parse(l) as Issue);
    const result: WriteResult = { items: [], removed: [], files: new Map(), projects: [], identities: [] };
    const byId = new Map(issues.map((i) => [String(i.id), i]));
    for (const d of batch.deletes) {
      const issue = byId.get(d.item.sourceId);
      if (issue) Object.assign(issue, { status: 'tombstone', deleted_at: batch.now, updated_at: batch.now });
    }
    for (const t of batch.upserts) {
      let issue = t.item ? byId.get(t.item.sourceId) : undefined;
      if (!issue) {
        issue = { id: nextId(issues), created_at: t.row.createdAt };
        issues.push(issue);
        byId.set(String(issue.id), issue);
      }
      fill(issue, t, batch.now);
      result.items.push({ taskUid: t.row.uid, sourceId: String(issue.id), file: null });
    }
    result.files.set('', replaceFile(this.path, issues.map((i) => `${JSON.stringify(i)}\n`).join('')));
    return result;
  }
}

/** The next id of the file's prefix: `bd-7` after `bd-6`; a short hash when the file's ids are hashes. */
function nextId(issues: Issue[]): string {
  const ids = issues.map((i) => String(i.id));
  const prefix = ids[0]?.includes('-') ? ids[0].slice(0, ids[0].lastIndexOf('-')) : 'bd';
  const numbers = ids
    .map((id) => /-(\d+)$/.exec(id)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  if (numbers.length || !ids.length) return `${prefix}-${Math.max(0, ...numbers) + 1}`;
  for (;;) {
    const id = `${prefix}-${Math.random().toString(16).slice(2, 6)}`;
    if (!ids.includes(id)) return id;
  }
}

/** Cairn's held fields into an issue, keeping its other keys and its related/discovered-from links. */
function fill(issue: Issue, t: LinkedTask, now: string): void {
  const h = beadsView(t.held);
  const parts = split(h.description);
  const status = beadsStatus(t.held);
  Object.assign(issue, {
    title: h.title,
    description: parts.description ?? '',
    status,
    priority: PRIORITIES.indexOf(h.priority),
    issue_type: h.kind,
    updated_at: now,
  });
  for (const [field] of SECTIONS) if (field) parts[field] ? (issue[field] = parts[field]) : delete issue[field];
  for (const [key, value] of [
    ['assignee', h.assignee],
    ['close_reason', h.closeReason],
    ['external_ref', h.links.issue],
  ] as const) {
    if (value) issue[key] = value;
    else delete issue[key];
  }
  issue.labels = h.labels;
  if (status === 'closed') issue.closed_at ??= now;
  else delete issue.closed_at;
  const kept = ((issue.dependencies ?? []) as Issue[]).filter((d) => d.type === 'related' || d.type === 'discovered-from');
  const made = (target: string, type: string) => ({ issue_id: issue.id, depends_on_id: target, type, created_at: now, created_by: 'cairn' });
  const old = (target: string, type: string) => ((issue.dependencies ?? []) as Issue[]).find((d) => d.depends_on_id === target && (d.type ?? 'blocks') === type);
  const deps = [...h.blockedBy.map((b) => old(b, 'blocks') ?? made(b, 'blocks')), ...(h.parent ? [old(h.parent, 'parent-child') ?? made(h.parent, 'parent-child')] : []), ...kept];
  if (deps.length) issue.dependencies = deps;
  else delete issue.dependencies;
}
