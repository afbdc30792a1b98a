/**
 * A DevPlanner workspace (seed 004) as a linked source: `<project>/_project.json`, one folder per
 * lane with `_order.json`, and one markdown card per task. The link reads the files DevPlanner's
 * app writes and writes cards the app opens (markdown-card.ts). A link may also name one project
 * folder (a folder holding _project.json) instead of the workspace.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fitItem, fitLabels, fitTitle } from '../../core/services/import/model.js';
import { laneFiles, projectDirs, readCard, readProjectConfig, slugOf, splitCard } from '../../core/services/import/devplanner.js';
import type { Held, HeldField, LinkSource, SourceRead, SourceTask } from '../source.js';
import { stampOf, steadyText } from '../stamps.js';
import { writeDevPlanner } from './devplanner-write.js';

const FIELDS: readonly HeldField[] = ['title', 'description', 'status', 'priority', 'labels', 'assignee', 'substatus', 'slug', 'checklist'];

/** A held value as a card stores it and reads back: three priorities, tasks split from the content, trimmed text. */
export function devplannerView(h: Held): Held {
  const fromText = splitCard(h.description);
  return {
    ...h,
    title: fitTitle(h.title, h.slug ?? 'card'),
    description: fromText.description,
    priority: h.priority === 'urgent' ? 'high' : h.priority,
    labels: fitLabels(h.labels).sort(),
    assignee: h.assignee === null || h.assignee.trim() === '' ? null : h.assignee,
    substatus: h.substatus
      ? h.substatus
          .toLowerCase()
          .replace(/[^a-z0-9_-]+/g, '-')
          .slice(0, 40)
      : null,
    checklist: [...fromText.checklist, ...h.checklist.map((i) => ({ text: fitItem(i.text.replace(/\s*\n\s*/g, ' ')), checked: i.checked }))].filter((i) => i.text !== ''),
  };
}

export class DevPlannerSource implements LinkSource {
  readonly kind = 'devplanner' as const;
  readonly isFolder = true;
  readonly fields = FIELDS;
  readonly holdsProjects: boolean;
  readonly ordersLanes = true;
  readonly projectFields = ['name', 'description', 'archived', 'statuses'];
  readonly label: string;
  /** Whether the path is one project's folder rather than a workspace of them. */
  readonly #single: boolean;

  constructor(readonly path: string) {
    this.#single = existsSync(join(path, '_project.json'));
    this.holdsProjects = !this.#single;
    this.label = `the DevPlanner workspace ${path}`;
  }

  view = devplannerView;

  /** Project folder names (relative to the path; '' for a single project) with their slugs. */
  #projects(): Array<{ rel: string; slug: string }> {
    if (this.#single) return [{ rel: '', slug: basename(this.path) }];
    if (!existsSync(this.path)) return [];
    return projectDirs(this.path).map((d) => ({ rel: basename(d), slug: basename(d) }));
  }

  #abs(rel: string): string {
    return rel ? join(this.path, rel) : this.path;
  }

  scan(): Map<string, string> {
    const out = new Map<string, string>();
    const add = (rel: string) => {
      const s = stampOf(this.#abs(rel));
      if (s !== undefined) out.set(rel, s);
    };
    for (const p of this.#projects()) {
      const pre = p.rel ? `${p.rel}/` : '';
      add(`${pre}_project.json`);
      for (const lane of safeDirs(this.#abs(p.rel))) {
        for (const f of safeList(this.#abs(`${pre}${lane}`))) if (f === '_order.json' || (f.endsWith('.md') && !f.startsWith('.'))) add(`${pre}${lane}/${f}`);
      }
    }
    return out;
  }

  tracks(rel: string): boolean {
    const parts = rel.split('/');
    const depth = this.#single ? parts.length + 1 : parts.length;
    if (parts.some((p) => p.startsWith('.') || p === '')) return false;
    const last = parts[parts.length - 1]!;
    if (depth === 2) return last === '_project.json';
    return depth === 3 && (last === '_order.json' || last.endsWith('.md'));
  }

  folders(files: Iterable<string>): string[] {
    const dirs = new Set<string>([this.path]);
    for (const f of files) {
      const d = dirname(f);
      if (d !== '.') {
        dirs.add(join(this.path, d));
        if (!this.#single) dirs.add(join(this.path, d.split('/')[0]!));
      }
    }
    return [...dirs];
  }

  /** The project folder (relative) and slug a file belongs to. */
  #projectOf(rel: string): { rel: string; slug: string } {
    if (this.#single) return { rel: '', slug: basename(this.path) };
    const first = rel.split('/')[0]!;
    return { rel: first, slug: first };
  }

  async read(files?: readonly string[]): Promise<SourceRead> {
    const out: SourceRead & { covered: Set<string> } = { projects: [], tasks: [], orders: [], warnings: [], covered: new Set() };
    const all = files === undefined;
    const wanted = new Map<string, { rel: string; slug: string; files: string[] }>();
    for (const p of all ? this.#projects() : files.map((f) => this.#projectOf(f))) {
      if (!wanted.has(p.rel)) wanted.set(p.rel, { ...p, files: [] });
    }
    for (const f of files ?? []) wanted.get(this.#projectOf(f).rel)!.files.push(f);
    for (const p of wanted.values()) this.#readProject(p, all, out);
    return out;
  }

  #readProject(p: { rel: string; slug: string; files: string[] }, all: boolean, out: SourceRead & { covered: Set<string> }): void {
    const dir = this.#abs(p.rel);
    const pre = p.rel ? `${p.rel}/` : '';
    if (!existsSync(join(dir, '_project.json'))) {
      // The project folder is gone: every file of it that was read before is covered, so its records go.
      for (const f of p.files) out.covered.add(f);
      return;
    }
    let lanes: string[];
    try {
      const cfg = readProjectConfig(dir, undefined);
      cfg.project.ref = p.slug;
      out.projects.push(cfg.project);
      lanes = cfg.lanes;
      out.covered.add(`${pre}_project.json`);
    } catch (err) {
      out.warnings.push(`${pre}_project.json: ${(err as Error).message}`);
      return;
    }
    const laneNames = new Set([...lanes, ...safeDirs(dir)]);
    const changedLanes = new Set(all ? laneNames : p.files.filter((f) => f.split('/').length - (p.rel ? 1 : 0) === 2).map((f) => f.split('/')[p.rel ? 1 : 0]!));
    for (const lane of laneNames) {
      if (!changedLanes.has(lane)) continue;
      const laneDir = join(dir, lane);
      const status = slugOf(lane).slice(0, 40);
      let ranked: string[];
      try {
        ranked = laneFiles(laneDir);
      } catch (err) {
        out.warnings.push(`${pre}${lane}/_order.json: ${(err as Error).message}`);
        ranked = safeList(laneDir)
          .filter((f) => f.endsWith('.md') && !f.startsWith('.'))
          .sort();
      }
      out.covered.add(`${pre}${lane}/_order.json`);
      const read = all ? ranked : ranked.filter((f) => p.files.includes(`${pre}${lane}/${f}`));
      for (const f of p.files) if (f.startsWith(`${pre}${lane}/`) && f.endsWith('.md')) out.covered.add(f);
      for (const f of read) {
        const rel = `${pre}${lane}/${f}`;
        const text = steadyText(join(laneDir, f));
        if (text === undefined) {
          // Being written (or emptied) by its owner right now: read on the next call, when its stamp has moved.
          out.covered.delete(rel);
          continue;
        }
        try {
          const t = readCard({ file: join(laneDir, f) }, p.slug, status, f, ranked.indexOf(f) + 1, text) as SourceTask;
          t.file = rel;
          out.tasks.push(t);
          out.covered.add(rel);
        } catch (err) {
          out.covered.delete(rel);
          out.warnings.push(`${rel}: ${(err as Error).message.replace(/ Nothing was imported\.$/, '')}`);
        }
      }
      out.orders.push({ projectRef: p.slug, status, sourceIds: ranked.map((f) => `${p.slug}/${slugOf(f.replace(/\.md$/, ''))}`), listed: all || p.files.includes(`${pre}${lane}/_order.json`) });
    }
  }

  write = writeDevPlanner(this);

  /** The absolute folder of a project by its ref. */
  projectDir(ref: string): string {
    return this.#single ? this.path : join(this.path, ref);
  }

  /** The path of a file relative to the link, from a project ref and a path inside the project. */
  relOf(ref: string, inside: string): string {
    return this.#single ? inside : `${ref}/${inside}`;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Sub-folders that may be lanes (not hidden ones such as .cairn). */
function safeDirs(dir: string): string[] {
  return safeList(dir)
    .filter((d) => !d.startsWith('.') && statSync(join(dir, d), { throwIfNoEntry: false })?.isDirectory())
    .sort();
}
