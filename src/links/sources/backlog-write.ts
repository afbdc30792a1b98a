/**
 * Writing Backlog.md task files as the backlog CLI writes them: front matter keys in its order and
 * form (TASK-N ids, "@name" assignees, `YYYY-MM-DD HH:mm` dates), and each part of the body between
 * its markers (`<!-- SECTION:DESCRIPTION:BEGIN -->`, `<!-- AC:BEGIN -->` with numbered `- [ ] #1`
 * items …). Keys and sections Cairn does not hold keep their text; each file is replaced whole.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BacklogCtx } from '../../core/services/import/backlog.js';
import { parseFrontMatter, splitFrontMatter } from '../../core/services/import/front-matter.js';
import type { Status } from '../../core/model/workflow.js';
import type { LinkedTask, WriteBatch, WriteResult } from '../source.js';
import { checkUnmoved, removeFile, replaceFile } from './atomic.js';
import { backlogView, descriptionParts, DOD, mdFiles, SECTIONS } from './backlog-format.js';
import { markdownFile, setKeys } from './front-matter-edit.js';

/** Backlog.md's date-time form, in UTC. */
const backlogTime = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

/** A marked part of a task file: its heading, the blank line Backlog.md puts after it or not, its markers. */
interface Part {
  marker: string;
  heading: string;
  gap: boolean;
}
const DESCRIPTION: Part = { marker: 'SECTION:DESCRIPTION', heading: 'Description', gap: true };
const AC: Part = { marker: 'AC', heading: 'Acceptance Criteria', gap: false };
const DOD_PART: Part = { marker: 'DOD', heading: 'Definition of Done', gap: false };
const TEXT_PARTS: Part[] = SECTIONS.map(([marker, heading]) => ({ marker, heading, gap: true }));

/** The body with this part's text replaced (added at the end when missing, removed when empty). */
export function setPart(body: string, part: Part, text: string): string {
  const begin = `<!-- ${part.marker}:BEGIN -->`;
  const end = `<!-- ${part.marker}:END -->`;
  const block = `## ${part.heading}\n${part.gap ? '\n' : ''}${begin}\n${text}\n${end}`;
  const marked = new RegExp(`(?:## ${part.heading}\\n\\n?)?${escape(begin)}[\\s\\S]*?${escape(end)}`);
  if (marked.test(body)) return text ? body.replace(marked, () => block) : tidy(body.replace(marked, ''));
  // An older file without markers: the text under the heading, up to the next heading.
  const plain = new RegExp(`## ${part.heading}\\s*\\n[\\s\\S]*?(?=\\n## |$)`);
  if (plain.test(body)) return text ? body.replace(plain, () => block) : tidy(body.replace(plain, ''));
  return text ? `${body.replace(/\s*$/, '')}${body.trim() ? '\n\n' : '\n'}${block}\n` : body;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const tidy = (body: string) => `${body.replace(/\n{3,}/g, '\n\n').replace(/\s*$/, '')}\n`;

const numbered = (items: Array<{ text: string; checked: boolean }>) => items.map((i, n) => `- [${i.checked ? 'x' : ' '}] #${n + 1} ${i.text}`).join('\n');

/** What a write needs of its source (backlog.ts), named here so the two files do not import each other. */
export interface BacklogTarget {
  readonly path: string;
  config(): { ctx: BacklogCtx };
}

export function writeBacklog(src: BacklogTarget): (batch: WriteBatch) => WriteResult {
  return (batch) => {
    const result: WriteResult = { items: [], removed: [], files: new Map(), projects: [], identities: [] };
    const stamps = new Map(batch.stamps);
    const { ctx } = src.config();
    const put = (rel: string, content: string) => {
      checkUnmoved(join(src.path, rel), rel, stamps.get(rel));
      const stamp = replaceFile(join(src.path, rel), content);
      stamps.set(rel, stamp);
      result.files.set(rel, stamp);
    };
    for (const d of batch.deletes) {
      const rel = d.item.file;
      if (rel && existsSync(join(src.path, rel))) {
        checkUnmoved(join(src.path, rel), rel, stamps.get(rel));
        removeFile(join(src.path, rel));
        result.files.set(rel, undefined);
      }
      result.removed.push(d.item.sourceId);
    }
    const ids = new Ids(src.path);
    // Parents first: a subtask's id is its parent's with a number after it.
    const upserts = [...batch.upserts].sort((a, b) => Number(a.held.parent !== null) - Number(b.held.parent !== null));
    for (const t of upserts) {
      const id = t.item?.sourceId ?? ids.next(t);
      const rel = t.item?.file ?? `${t.row.status === 'draft' ? 'drafts' : 'tasks'}/${id} - ${fileTitle(t.row.title)}.md`;
      const text = t.item?.file ? readFileSync(join(src.path, rel), 'utf8') : '';
      put(rel, taskFile(text, t, id, ctx.statuses, ctx.milestones, batch.now));
      result.items.push({ taskUid: t.row.uid, sourceId: id, file: rel });
    }
    return result;
  };
}

/** The title as Backlog.md puts it in a file name ("Set up CI" → "Set-up-CI"). */
const fileTitle = (title: string) =>
  title
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'task';

/** New task ids: the next number after every task file's, a subtask's after its siblings'. */
class Ids {
  readonly #taken = new Set<string>();
  constructor(root: string) {
    for (const dir of ['tasks', 'completed', 'archive/tasks', 'drafts']) for (const f of mdFiles(join(root, dir))) this.#taken.add(f.split(' ')[0]!.toLowerCase());
  }

  next(t: LinkedTask): string {
    const draft = t.row.status === 'draft';
    const prefix = t.held.parent ? `${t.held.parent}.` : draft ? 'draft-' : 'task-';
    const pattern = new RegExp(`^${escape(prefix)}(\\d+)$`);
    const max = Math.max(0, ...[...this.#taken].map((x) => Number(pattern.exec(x)?.[1] ?? 0)));
    const id = `${prefix}${max + 1}`;
    this.#taken.add(id);
    return id;
  }
}

/** A task file with Cairn's fields written into `text` (empty for a new file). */
function taskFile(text: string, t: LinkedTask, id: string, statuses: Array<Pick<Status, 'name' | 'displayName' | 'category'>>, milestones: Map<string, string>, now: string): string {
  const h = backlogView(t.held, statuses);
  const parts = splitFrontMatter(text) ?? { yaml: '', content: text };
  const data = text ? parseFrontMatter(text).data : {};
  const byTitle = new Map([...milestones].map(([mid, title]) => [title, mid]));
  const milestone = h.labels.map((l) => (l.startsWith('milestone:') ? byTitle.get(l.slice(10)) : undefined)).find((m) => m !== undefined);
  const labels = h.labels.filter((l) => !(l.startsWith('milestone:') && byTitle.has(l.slice(10))));
  const at = (v: unknown) => (Array.isArray(v) && v.some((x) => String(x).startsWith('@')) ? '@' : '');
  const status = h.status === 'draft' ? 'Draft' : (statuses.find((s) => s.name === h.status)?.displayName ?? h.status);
  const fm: Array<[string, unknown]> = [];
  const set = (k: string, v: unknown) => {
    if (JSON.stringify(data[k]) !== JSON.stringify(v)) fm.push([k, v]);
  };
  if (!text) set('id', id.toUpperCase());
  set('title', h.title);
  set('status', status);
  set(
    'assignee',
    (h.assignee ?? '')
      .split(', ')
      .filter(Boolean)
      .map((a) => `${text ? at(data.assignee) : '@'}${a}`),
  );
  if (!text) set('created_date', backlogTime(t.row.createdAt));
  set('updated_date', backlogTime(now));
  set('labels', labels);
  set('milestone', milestone ?? (data.milestone && !milestones.has(String(data.milestone).toLowerCase()) ? data.milestone : undefined));
  set(
    'dependencies',
    h.blockedBy.map((b) => b.toUpperCase()),
  );
  set('parent_task_id', h.parent ? h.parent.toUpperCase() : undefined);
  set('priority', h.priority === 'none' ? undefined : h.priority);
  const desc = descriptionParts(h.description);
  let body = parts.content || '\n';
  body = setPart(body, DESCRIPTION, desc.description);
  body = setPart(body, AC, numbered(h.checklist.filter((i) => !i.text.startsWith(DOD))));
  body = setPart(body, DOD_PART, numbered(h.checklist.filter((i) => i.text.startsWith(DOD)).map((i) => ({ ...i, text: i.text.slice(DOD.length) }))));
  for (const p of TEXT_PARTS) body = setPart(body, p, desc.sections[p.marker] ?? '');
  return markdownFile(setKeys(parts.yaml, fm), body.startsWith('\n') ? body : `\n${body}`);
}
