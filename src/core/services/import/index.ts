/**
 * `cairn import PATH [--from …]`: finds the source's format when not named, reads it with that
 * source's reader and writes everything in one transaction (a dry run reads through the same path
 * and writes nothing).
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { CairnError } from '../../errors.js';
import { ProjectKey } from '../../model/ids.js';
import { Importer, type ImportReport } from './apply.js';
import { readCairnExport } from './cairn.js';
import { SOURCES, type ImportItem, type ProgressFn, type SourceName } from './model.js';
import { readSources, type ForeignSqlite } from './sources.js';

export { SOURCES, type SourceName } from './model.js';
export type { ImportReport } from './apply.js';
export type { ForeignSqlite } from './sources.js';

export interface ImportOptions {
  path: string;
  from?: SourceName;
  /** Target project key: every task goes there (created when missing). */
  project?: string;
  dryRun?: boolean;
  onProgress?: ProgressFn;
  /** The folder the import runs in: a new project whose recorded root is not on this machine is rooted here. */
  cwd?: string;
  /** Opens another application's SQLite file read-only (Castle); the entry point provides it. */
  openSqlite?: (file: string) => ForeignSqlite;
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

function head(file: string, n = 4096): string {
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(n);
      return buf.subarray(0, readSync(fd, buf, 0, n, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

/** The format of a path, from what it holds; undefined when nothing matches. */
export function detectSource(path: string): SourceName | undefined {
  if (!existsSync(path)) return undefined;
  if (isDir(path)) {
    if (existsSync(join(path, '.taskmaster', 'tasks', 'tasks.json')) || (existsSync(join(path, 'tasks', 'tasks.json')) && basename(path) === '.taskmaster')) return 'taskmaster';
    if (existsSync(join(path, '.beads', 'issues.jsonl')) || (basename(path) === '.beads' && existsSync(join(path, 'issues.jsonl')))) return 'beads';
    if (isDir(join(path, 'backlog', 'tasks')) || (basename(path) === 'backlog' && isDir(join(path, 'tasks')))) return 'backlog';
    if (existsSync(join(path, 'castle.db'))) return 'castle';
    if (isDevPlanner(path)) return 'devplanner';
    return undefined;
  }
  const start = head(path);
  if (start.startsWith('SQLite format 3\u0000')) return 'castle';
  if (start.startsWith('{"entity":"cairn-export"')) return 'cairn';
  if (basename(path) === 'issues.jsonl' || /^\{"id":"[^"]+","title":/.test(start)) return 'beads';
  if (basename(path) === 'tasks.json') return 'taskmaster';
  return undefined;
}

/** A DevPlanner workspace: folders holding _project.json (checked after the file formats, as it lists a folder). */
function isDevPlanner(path: string): boolean {
  if (!isDir(path)) return false;
  if (existsSync(join(path, '_project.json'))) return true;
  try {
    return readdirSync(path).some((d) => existsSync(join(path, d, '_project.json')));
  } catch {
    return false;
  }
}

export function items(source: SourceName, opts: ImportOptions): AsyncIterable<ImportItem> {
  if (source === 'cairn') return readCairnExport(opts.path, opts.onProgress);
  return readSources(source, opts.path, {
    ...(opts.openSqlite ? { openSqlite: opts.openSqlite } : {}),
    ...(opts.project ? { project: opts.project.toUpperCase() } : {}),
    ...(opts.onProgress ? { progress: opts.onProgress } : {}),
  });
}

export async function runImport(ctx: Context, opts: ImportOptions): Promise<ImportReport> {
  // A relative path is the caller's, like its working directory.
  if (opts.cwd && !isAbsolute(opts.path)) opts = { ...opts, path: resolve(opts.cwd, opts.path) };
  if (!existsSync(opts.path)) {
    throw new CairnError('VALIDATION_ERROR', `${opts.path}: no such file or folder. Nothing was imported.`, {
      suggestions: ['Check the path; cairn import takes a Cairn export, a castle.db, a DevPlanner workspace, a repository with .taskmaster/, backlog/ or .beads/'],
    });
  }
  // The flag names the project as `project create` would: `--project ../x` is refused here, before anything is read.
  if (opts.project !== undefined) {
    const key = ProjectKey.safeParse(opts.project);
    if (!key.success) {
      throw new CairnError('VALIDATION_ERROR', `--project ${JSON.stringify(opts.project)}: ${key.error.issues[0]!.message}. Nothing was imported.`, {
        suggestions: ['Name the target project by its key, e.g. --project API'],
      });
    }
    opts = { ...opts, project: key.data };
  }
  const source = opts.from ?? detectSource(opts.path);
  if (!source) {
    throw new CairnError('VALIDATION_ERROR', `Cannot tell what ${opts.path} holds. Nothing was imported.`, {
      suggestions: [`Name the format: --from ${SOURCES.join('|')}`],
    });
  }
  const run = async (tx: Parameters<Parameters<Context['store']['read']>[0]>[0]) => {
    const importer = new Importer(tx, ctx, { source, dryRun: opts.dryRun ?? false, ...(opts.project ? { project: opts.project.toUpperCase() } : {}), ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    await importer.start();
    for await (const item of items(source, opts)) {
      if (item.type === 'project') await importer.project(item);
      else await importer.task(item);
    }
    return importer.finish();
  };
  return opts.dryRun ? ctx.store.read(run) : ctx.store.write(run);
}
