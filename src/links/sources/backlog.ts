/**
 * A Backlog.md folder as a linked source: config.yml's workflow, one markdown task per file in
 * tasks/, completed/, archive/tasks/ and drafts/. A task's Description, Implementation Plan, Notes
 * and Final Summary sections make its description, its acceptance criteria and Definition of Done
 * its checklist (import/backlog.ts); a write puts each back in its marked section, as the backlog CLI
 * writes them (backlog-write.ts). Decisions and docs are imported records, not linked ones.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { backlogConfig, backlogRoot, readBacklogTask, TASK_DIRS, type BacklogCtx } from '../../core/services/import/backlog.js';
import type { Held, HeldField, LinkSource, SourceRead, SourceTask } from '../source.js';
import { backlogView, mdFiles } from './backlog-format.js';
import { stampOf, steadyText } from '../stamps.js';
import { writeBacklog } from './backlog-write.js';

const FIELDS: readonly HeldField[] = ['title', 'description', 'status', 'priority', 'labels', 'assignee', 'checklist', 'parent', 'blockedBy'];

export class BacklogSource implements LinkSource {
  readonly kind = 'backlog' as const;
  readonly isFolder = true;
  readonly fields = FIELDS;
  readonly label: string;
  readonly repository: string;
  /** The backlog/ folder. */
  readonly root: string;

  constructor(readonly path: string) {
    this.root = backlogRoot(path);
    this.repository = dirname(this.root);
    this.label = `the Backlog.md folder ${this.root}`;
  }

  #config: { stamp: string | undefined; value: ReturnType<typeof backlogConfig> } | undefined;

  view = (h: Held): Held => backlogView(h, this.config().ctx.statuses);

  scan(): Map<string, string> {
    const out = new Map<string, string>();
    const add = (rel: string) => {
      const s = stampOf(join(this.path, rel));
      if (s !== undefined) out.set(rel, s);
    };
    add('config.yml');
    for (const dir of [...TASK_DIRS.map(([d]) => d), 'milestones']) for (const f of mdFiles(join(this.path, dir))) add(`${dir}/${f}`);
    return out;
  }

  tracks(rel: string): boolean {
    if (rel === 'config.yml') return true;
    const dir = dirname(rel);
    return rel.endsWith('.md') && !rel.split('/').pop()!.startsWith('.') && [...TASK_DIRS.map(([d]) => d), 'milestones'].includes(dir);
  }

  folders(): string[] {
    return [this.path, join(this.path, 'archive'), ...[...TASK_DIRS.map(([d]) => d), 'milestones'].map((d) => join(this.path, d)).filter((d) => existsSync(d))];
  }

  /** config.yml's workflow and the milestones, read again when config.yml changes. */
  config(): { project: SourceRead['projects'][number]; ctx: BacklogCtx } {
    const stamp = stampOf(join(this.path, 'config.yml'));
    if (!this.#config || this.#config.stamp !== stamp) this.#config = { stamp, value: backlogConfig(this.path, undefined) };
    return this.#config.value;
  }

  async read(files?: readonly string[]): Promise<SourceRead> {
    const out: SourceRead & { covered: Set<string> } = { projects: [], tasks: [], orders: [], warnings: [], covered: new Set() };
    let config: ReturnType<BacklogSource['config']>;
    try {
      config = this.config();
    } catch (err) {
      out.warnings.push(`config.yml: ${(err as Error).message.replace(/ Nothing was imported\.$/, '')}`);
      return out;
    }
    out.projects.push(config.project);
    const wanted = files ?? [...this.scan().keys()];
    for (const rel of wanted) {
      const where = TASK_DIRS.find(([d]) => dirname(rel) === d)?.[1];
      if (!where || !rel.endsWith('.md')) continue;
      out.covered.add(rel);
      const file = join(this.path, rel);
      if (!existsSync(file)) continue;
      const text = steadyText(file);
      if (text === undefined) {
        out.covered.delete(rel);
        continue;
      }
      try {
        const t = readBacklogTask({ file }, where, config.ctx, text) as SourceTask;
        t.file = rel;
        out.tasks.push(t);
      } catch (err) {
        out.covered.delete(rel);
        out.warnings.push(`${rel}: ${(err as Error).message.replace(/ Nothing was imported\.$/, '')}`);
      }
    }
    return out;
  }

  write = writeBacklog(this);
}
