/**
 * `cairn export`: the workspace as JSONL (lossless) or as one markdown file per task, read in one
 * snapshot a page at a time and handed to the caller's writer as it goes, so memory stays flat
 * however large the workspace. Output is sorted (projects by key, tasks by number, a task's
 * comments and events after it) and carries nothing about the export itself, so exporting twice
 * gives the same bytes. Tokens are never read.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import type { ExportFormat } from '../model/transfer.js';
import { CairnError } from '../errors.js';
import { ExportFolder, prepareOutFile } from './export-files.js';
import type { ProjectRow, Tx } from '../ports.js';
import type { TaskDump } from '../transfer-port.js';
import { commentLines, eventLine, headerLine, projectLine, taskLine } from './export-lines.js';
import { isMarkdownTaskFile, markdownFile, markdownFolderOf, projectReadme } from './export-markdown.js';
import { resolveProject } from './resolve.js';

export interface ExportOptions {
  /** Only this project (key or alias). */
  project?: string;
  includeArchived?: boolean;
  /** Only tasks with an event after this seq (and only those events): an incremental export. */
  since?: number;
}

export interface ExportCounts {
  projects: number;
  tasks: number;
  comments: number;
  events: number;
}

/** Where output goes: a chunk of text, awaited (a stream's backpressure). */
export type ExportWriter = (chunk: string) => void | Promise<void>;
/** Markdown output: one file (a path relative to the output folder, with "/" separators) at a time. */
export type ExportFileWriter = (path: string, content: string) => void | Promise<void>;

const PAGE = 500;

async function projectsOf(tx: Tx, opts: ExportOptions): Promise<ProjectRow[]> {
  if (opts.project) return [await resolveProject(tx, opts.project)];
  return tx.listProjects(opts.includeArchived ?? false);
}

/** Every task of a project, a page at a time, in number order. */
async function* pages(tx: Tx, p: ProjectRow, opts: ExportOptions): AsyncGenerator<TaskDump[]> {
  let after = 0;
  for (;;) {
    const page = await tx.transfer.dumpTasks({
      projectUid: p.uid,
      afterSeq: after,
      limit: PAGE,
      includeArchived: opts.includeArchived ?? false,
      ...(opts.since !== undefined ? { sinceSeq: opts.since } : {}),
    });
    if (page.length === 0) return;
    yield page;
    after = page[page.length - 1]!.row.seq;
    if (page.length < PAGE) return;
  }
}

/** Writes the JSONL export; see docs/import.md for the format. */
export async function exportJsonl(ctx: Context, opts: ExportOptions, write: ExportWriter): Promise<ExportCounts> {
  return ctx.store.read(async (tx) => {
    const counts: ExportCounts = { projects: 0, tasks: 0, comments: 0, events: 0 };
    await write(headerLine() + '\n');
    for (const p of await projectsOf(tx, opts)) {
      counts.projects++;
      const lines = [projectLine(p, await tx.getStatuses(p.uid), await tx.transfer.nextSeq(p.uid))];
      for (const e of await tx.transfer.projectEvents(p.uid, opts.since)) lines.push(eventLine(e, p.key, null));
      counts.events += lines.length - 1;
      await write(lines.join('\n') + '\n');
      for await (const page of pages(tx, p, opts)) {
        const out: string[] = [];
        for (const d of page) {
          const id = `${p.key}-${d.row.seq}`;
          out.push(taskLine(d), ...commentLines(d));
          for (const e of d.events) out.push(eventLine(e, p.key, id));
          counts.tasks++;
          counts.comments += d.comments.length;
          counts.events += d.events.length;
        }
        await write(out.join('\n') + '\n');
      }
    }
    return counts;
  });
}

/** Writes the markdown export: `<KEY>/README.md` per project and `<KEY>/<KEY-N>.md` per task. */
export async function exportMarkdown(ctx: Context, opts: ExportOptions, file: ExportFileWriter): Promise<ExportCounts> {
  return ctx.store.read(async (tx) => {
    const counts: ExportCounts = { projects: 0, tasks: 0, comments: 0, events: 0 };
    for (const p of await projectsOf(tx, opts)) {
      counts.projects++;
      const folder = markdownFolderOf(p);
      await file(`${folder}/README.md`, projectReadme(p, await tx.getStatuses(p.uid)));
      for await (const page of pages(tx, p, opts)) {
        for (const d of page) {
          await file(`${folder}/${folder}-${d.row.seq}.md`, markdownFile(d));
          counts.tasks++;
          counts.comments += d.comments.length;
          counts.events += d.events.length;
        }
      }
    }
    return counts;
  });
}

export interface ExportRequest extends ExportOptions {
  format: ExportFormat;
  /** A file (jsonl) or folder (markdown), read against the caller's working directory. */
  out?: string;
}

export interface ExportResult extends ExportCounts {
  format: ExportRequest['format'];
  /** Where it was written, as an absolute path. */
  out?: string;
  /** The JSONL itself, when there was neither a file nor the caller's stream to write it to. */
  jsonl?: string;
}

/** Writes chunks to a file, waiting when the stream asks to, so memory stays flat. */
async function toFile(ctx: Context, opts: ExportOptions, path: string): Promise<ExportCounts> {
  prepareOutFile(path);
  const file = createWriteStream(path);
  try {
    return await exportJsonl(ctx, opts, async (chunk) => {
      if (!file.write(chunk)) await once(file, 'drain');
    });
  } finally {
    file.end();
    await once(file, 'close');
  }
}

/**
 * An export to `out`, else to the caller's stream (ctx.exportSink), else into the answer. A markdown
 * export rewrites a task file only when it changed, and removes the files of tasks no longer exported.
 */
export async function exportTo(ctx: Context, req: ExportRequest): Promise<ExportResult> {
  const { format, out: given, ...opts } = req;
  const out = given === undefined || given === '-' ? undefined : resolve(ctx.cwd ?? process.cwd(), given);
  if (format === 'markdown') {
    if (!out) {
      throw new CairnError('VALIDATION_ERROR', 'A markdown export writes a folder of files: name it (out; --out DIR on the command line). Nothing was written.', {
        suggestions: ['cairn export --format markdown --out tasks-md'],
      });
    }
    const folder = new ExportFolder(out);
    const counts = await exportMarkdown(ctx, opts, (path, content) => folder.write(path, content));
    if (opts.since === undefined) folder.prune(isMarkdownTaskFile);
    return { format, ...counts, out };
  }
  if (out) return { format, ...(await toFile(ctx, opts, out)), out };
  if (ctx.exportSink) return { format, ...(await exportJsonl(ctx, opts, ctx.exportSink)) };
  const chunks: string[] = [];
  const counts = await exportJsonl(ctx, opts, (chunk) => void chunks.push(chunk));
  return { format, ...counts, jsonl: chunks.join('') };
}
