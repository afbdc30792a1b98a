/**
 * Writing a DevPlanner workspace as DevPlanner's app does: a card is a markdown file named by its
 * slug in its lane's folder, with the front matter keys the app writes (version + 1 and `updated`
 * on every write, `cardNumber` from `nextCardNumber` for a new card), its tasks as `- [ ]` lines
 * under `## Tasks`, and each lane's `_order.json` listing its cards first to last. Front matter keys
 * Cairn does not know and the body's layout are kept; each file is replaced whole (atomic.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseFrontMatter, splitFrontMatter } from '../../core/services/import/front-matter.js';
import { splitCard, TASK_LINE } from '../../core/services/import/devplanner.js';
import type { Status } from '../../core/model/workflow.js';
import { SourceMoved, type Held, type LinkedProject, type LinkedTask, type WriteBatch, type WriteResult } from '../source.js';
import { stampOf } from '../stamps.js';
import { checkUnmoved, removeFile, replaceFile } from './atomic.js';
import { markdownFile, setKeys } from './front-matter-edit.js';

/** Lower-case words joined by "-", as DevPlanner names card files (its slugify). */
export function cardSlug(title: string): string {
  return (
    title
      .toLowerCase()
      .trim()
      .replace(/[^\w\s-]/g, ' ')
      .replace(/[\s_]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'card'
  );
}

const isFinished = (s: Status) => s.category === 'done' || s.category === 'canceled';

function lanesOf(statuses: Status[], old: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(
    statuses.map((s) => [
      s.name,
      { ...(old[s.name] as object | undefined), displayName: s.displayName, color: s.color, collapsed: (old[s.name] as { collapsed?: boolean } | undefined)?.collapsed ?? isFinished(s) },
    ]),
  );
}

/**
 * The body with this description and checklist. When the text around the tasks is unchanged the
 * task lines are edited in place (DevPlanner's setTaskChecked / appendTask), so the layout a person
 * gave the card survives; otherwise it is the description, then `## Tasks` and the tasks.
 */
export function cardBody(oldBody: string, description: string, checklist: Array<{ text: string; checked: boolean }>): string {
  const line = (i: { text: string; checked: boolean }) => `- [${i.checked ? 'x' : ' '}] ${i.text}`;
  if (splitCard(oldBody).description === description.trim()) {
    const lines = oldBody.replace(/\n+$/, '').split('\n');
    const at = lines.flatMap((l, i) => (TASK_LINE.test(l) ? [i] : []));
    if (at.length || !checklist.length) {
      for (const [n, i] of at.entries()) {
        if (n >= checklist.length) break;
        const indent = /^\s*/.exec(lines[i]!)![0];
        lines[i] = `${indent}${line(checklist[n]!)}`;
      }
      if (checklist.length > at.length) lines.splice(at.length ? at[at.length - 1]! + 1 : lines.length, 0, ...checklist.slice(at.length).map(line));
      for (const i of at.slice(checklist.length).reverse()) lines.splice(i, 1);
      const out = lines.join('\n').replace(/(?:^|\n+)## Tasks$/, '');
      return out.trim() === '' ? '' : `${out}\n`;
    }
  }
  const tasks = checklist.length ? `## Tasks\n${checklist.map(line).join('\n')}` : '';
  const text = [description.trim(), tasks].filter(Boolean).join('\n\n');
  return text ? `${text}\n` : '';
}

/** What a write needs of its source (devplanner.ts), named here so the two files do not import each other. */
export interface DevPlannerTarget {
  readonly path: string;
  projectDir(ref: string): string;
  relOf(ref: string, inside: string): string;
  view(held: Held): Held;
}

export function writeDevPlanner(src: DevPlannerTarget): (batch: WriteBatch) => WriteResult {
  return (batch) => new DevPlannerWrite(src, batch).run();
}

class DevPlannerWrite {
  readonly result: WriteResult = { items: [], removed: [], files: new Map(), projects: [], identities: [] };
  /** Stamps as last read, moved along as this write replaces files. */
  readonly #stamps: Map<string, string>;
  /** Card slugs given in this write, per project (so two new cards never share one). */
  readonly #taken = new Map<string, Set<string>>();
  /** Project configs read and changed by this write, written once at the end. */
  readonly #configs = new Map<string, { rel: string; cfg: Record<string, unknown>; changed: boolean }>();
  readonly #slugOfTask = new Map<string, string>();

  constructor(
    private readonly src: DevPlannerTarget,
    private readonly batch: WriteBatch,
  ) {
    this.#stamps = new Map(batch.stamps);
  }

  run(): WriteResult {
    for (const p of this.batch.projects) this.#project(p);
    for (const d of this.batch.deletes) this.#delete(d.item.file, d.item.sourceId);
    for (const t of this.batch.upserts) this.#card(t);
    for (const l of this.batch.lanes) this.#lane(l.projectRef, l.status, l.order);
    for (const { rel, cfg, changed } of this.#configs.values()) if (changed) this.#put(rel, `${JSON.stringify(cfg, null, 2)}\n`);
    return this.result;
  }

  #abs(rel: string): string {
    return join(this.src.path, rel);
  }

  /** Replaces a file that must be as last read; records its new stamp. */
  #put(rel: string, content: string): void {
    checkUnmoved(this.#abs(rel), rel, this.#stamps.get(rel));
    const stamp = replaceFile(this.#abs(rel), content);
    this.#stamps.set(rel, stamp);
    this.result.files.set(rel, stamp);
  }

  #config(ref: string): { rel: string; cfg: Record<string, unknown>; changed: boolean } {
    let c = this.#configs.get(ref);
    if (!c) {
      const rel = this.src.relOf(ref, '_project.json');
      checkUnmoved(this.#abs(rel), rel, this.#stamps.get(rel));
      c = { rel, cfg: JSON.parse(readFileSync(this.#abs(rel), 'utf8')) as Record<string, unknown>, changed: false };
      this.#configs.set(ref, c);
    }
    return c;
  }

  #project(p: LinkedProject): void {
    if (p.ref === undefined) return this.#newProject(p);
    const c = this.#config(p.ref);
    const archived = p.row.archivedAt !== null;
    const lanes = lanesOf(p.statuses, (c.cfg.lanes ?? {}) as Record<string, unknown>);
    const wanted = { name: p.row.name, description: p.row.description, archived, lanes };
    for (const [k, v] of Object.entries(wanted)) {
      if (JSON.stringify(c.cfg[k]) !== JSON.stringify(v)) {
        c.cfg[k] = v;
        c.changed = true;
      }
    }
    if (c.changed) c.cfg.updated = this.batch.now;
  }

  #newProject(p: LinkedProject): void {
    const base = p.row.aliases.find((a) => /^[a-z0-9-]+$/.test(a)) ?? cardSlug(p.row.name);
    let ref = base;
    for (let n = 2; existsSync(this.src.projectDir(ref)); n++) ref = `${base}-${n}`;
    const cfg = {
      name: p.row.name,
      description: p.row.description,
      created: p.row.createdAt,
      updated: this.batch.now,
      archived: p.row.archivedAt !== null,
      lanes: lanesOf(p.statuses),
      prefix: p.row.key,
      nextCardNumber: 1,
    };
    for (const s of p.statuses) this.#put(this.src.relOf(ref, `${s.name}/_order.json`), '[]');
    this.#put(this.src.relOf(ref, '_project.json'), `${JSON.stringify(cfg, null, 2)}\n`);
    this.result.projects.push({ projectUid: p.row.uid, ref });
  }

  #delete(file: string | null, sourceId: string): void {
    if (file !== null && existsSync(this.#abs(file))) {
      checkUnmoved(this.#abs(file), file, this.#stamps.get(file));
      removeFile(this.#abs(file));
      this.#stamps.delete(file);
      this.result.files.set(file, undefined);
    }
    this.result.removed.push(sourceId);
  }

  /** A slug no card of the project has: the task's, else its title's, with -2, -3 … when taken. */
  #newSlug(t: LinkedTask): string {
    const taken = this.#taken.get(t.projectRef) ?? new Set<string>();
    this.#taken.set(t.projectRef, taken);
    const dir = this.src.projectDir(t.projectRef);
    const exists = (slug: string) => taken.has(slug) || listDirs(dir).some((lane) => existsSync(join(dir, lane, `${slug}.md`)));
    const base = cardSlug(t.row.slug ?? t.row.title);
    let slug = base;
    for (let n = 2; exists(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  }

  #card(t: LinkedTask): void {
    const lane = t.row.status;
    const slug = t.item?.file ? basename(t.item.file, '.md') : this.#newSlug(t);
    const rel = this.src.relOf(t.projectRef, `${lane}/${slug}.md`);
    const old = t.item?.file ?? undefined;
    if (old && old !== rel) {
      // A move: the card's file goes to its new lane first (one rename), then its content is replaced there.
      checkUnmoved(this.#abs(old), old, this.#stamps.get(old));
      if (existsSync(this.#abs(rel))) throw new SourceMoved(rel);
      mkdirSync(join(this.src.projectDir(t.projectRef), lane), { recursive: true });
      renameSync(this.#abs(old), this.#abs(rel));
      this.#stamps.delete(old);
      this.result.files.set(old, undefined);
      this.#stamps.set(rel, stampOf(this.#abs(rel))!);
    }
    const text = t.item ? readFileSync(this.#abs(rel), 'utf8') : '';
    const parts = splitFrontMatter(text) ?? { yaml: '', content: text };
    const data = t.item ? parseFrontMatter(text).data : {};
    const h = this.src.view(t.held);
    const fm: Array<[string, unknown]> = [];
    const set = (k: string, v: unknown) => {
      if (JSON.stringify(data[k]) !== JSON.stringify(v)) fm.push([k, v]);
    };
    set('title', h.title);
    if (!t.item) {
      set('created', t.row.createdAt);
    }
    set('updated', this.batch.now);
    set('version', t.item ? (typeof data.version === 'number' ? data.version : 1) + 1 : 1);
    set('status', h.substatus ?? undefined);
    set('priority', h.priority === 'none' ? undefined : h.priority);
    set('assignee', h.assignee ?? undefined);
    set('tags', h.labels.length ? h.labels : undefined);
    if (!t.item) {
      set('cardNumber', t.row.seq);
      this.#raiseNextCardNumber(t.projectRef, t.row.seq);
    }
    const body = cardBody(parts.content, h.description, h.checklist);
    this.#put(rel, markdownFile(setKeys(parts.yaml, fm), body));
    const sourceId = `${t.projectRef}/${slug}`;
    this.result.items.push({ taskUid: t.row.uid, sourceId, file: rel });
    this.#slugOfTask.set(t.row.uid, slug);
    if (t.row.slug !== slug) this.result.identities.push({ taskUid: t.row.uid, slug });
  }

  #raiseNextCardNumber(ref: string, seq: number): void {
    const c = this.#config(ref);
    const next = typeof c.cfg.nextCardNumber === 'number' ? c.cfg.nextCardNumber : undefined;
    if (next !== undefined && next <= seq) {
      c.cfg.nextCardNumber = seq + 1;
      c.cfg.updated = this.batch.now;
      c.changed = true;
    }
  }

  #lane(ref: string, status: string, order: WriteBatch['lanes'][number]['order']): void {
    const rel = this.src.relOf(ref, `${status}/_order.json`);
    const abs = this.#abs(rel);
    const current = existsSync(abs) ? (JSON.parse(readFileSync(abs, 'utf8')) as unknown) : [];
    const have = Array.isArray(current) ? current.filter((x): x is string => typeof x === 'string') : [];
    const names = order
      .map((o) => (o.sourceId ? o.sourceId.slice(o.sourceId.indexOf('/') + 1) : this.#slugOfTask.get(o.taskUid)))
      .filter((s): s is string => s !== undefined)
      .map((s) => `${s}.md`);
    const laneDir = join(this.src.projectDir(ref), status);
    const files = new Set(existsSync(laneDir) ? readdirSync(laneDir) : []);
    // Cards in the folder that are not (yet) tasks keep their place after the ones Cairn orders.
    const rest = have.filter((f) => !names.includes(f) && files.has(f));
    const next = [...names.filter((f) => files.has(f)), ...rest];
    if (JSON.stringify(next) === JSON.stringify(have)) return;
    this.#put(rel, JSON.stringify(next, null, 2));
  }
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}
