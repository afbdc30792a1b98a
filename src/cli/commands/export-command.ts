/** `cairn export`: the workspace as JSONL (lossless, the default) or as markdown files, to a file, a folder or stdout. */
import type { Command } from 'commander';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { CairnError } from '../../core/errors.js';
import { isMarkdownTaskFile } from '../../core/services/export-markdown.js';
import { exportJsonl, exportMarkdown, type ExportCounts, type ExportOptions } from '../../core/services/export.js';
import { ExportFolder, prepareOutFile } from './export-files.js';
import { openSession, type GlobalOptions } from '../session.js';
import { stdout, writeOut } from '../stdout.js';

interface ExportFlags extends GlobalOptions {
  format: string;
  project?: string;
  out?: string;
  includeArchived?: boolean;
  since?: string;
}

/** Writes chunks to a stream, waiting when it asks to (memory stays flat on a slow pipe). */
function streamWriter(out: Writable) {
  return async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
}

async function toJsonl(o: ExportFlags, options: ExportOptions): Promise<ExportCounts> {
  const session = openSession(o, { write: false });
  try {
    if (!o.out || o.out === '-') return await exportJsonl(session.ctx, options, streamWriter(stdout()));
    prepareOutFile(o.out);
    const file = createWriteStream(o.out);
    try {
      return await exportJsonl(session.ctx, options, streamWriter(file));
    } finally {
      file.end();
      await once(file, 'close');
    }
  } finally {
    await session.close();
  }
}

/** One folder per project; a task file is rewritten only when it changed, and files of tasks no longer exported are removed. */
async function toMarkdown(o: ExportFlags, options: ExportOptions): Promise<ExportCounts> {
  if (!o.out || o.out === '-') {
    throw new CairnError('VALIDATION_ERROR', '--format markdown writes a folder of files: name it with --out DIR. Nothing was written.', {
      suggestions: ['cairn export --format markdown --out tasks-md'],
    });
  }
  const folder = new ExportFolder(o.out);
  const session = openSession(o, { write: false });
  try {
    const counts = await exportMarkdown(session.ctx, options, (path, content) => folder.write(path, content));
    if (!options.since) folder.prune(isMarkdownTaskFile);
    return counts;
  } finally {
    await session.close();
  }
}

export function addExportCommand(program: Command): void {
  program
    .command('export')
    .description('Export the workspace: JSONL (lossless: projects, workflows, tasks, checklists, comments, links, claims, history; never tokens) or one markdown file per task')
    .option('--format <format>', 'jsonl (default) or markdown', 'jsonl')
    .option('--project <KEY>', 'only this project')
    .option('--out <path>', 'file (jsonl) or folder (markdown); "-" or none: stdout (jsonl only)')
    .option('--include-archived', 'include archived projects and tasks')
    .option('--since <seq>', 'only tasks changed after this event seq, and only those events')
    .addHelpText(
      'after',
      '\nExamples:\n  cairn export --out cairn.jsonl\n  cairn export --project API | gzip > api.jsonl.gz\n  cairn export --format markdown --out tasks-md\n  cairn export --since 1200 --out delta.jsonl',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<ExportFlags>();
      if (o.format !== 'jsonl' && o.format !== 'markdown') {
        throw new CairnError('VALIDATION_ERROR', `--format ${o.format}: expected jsonl or markdown. Nothing was written.`, {
          suggestions: ['cairn export --format jsonl', 'cairn export --format markdown --out DIR'],
        });
      }
      const since = o.since === undefined ? undefined : Number(o.since);
      if (since !== undefined && !(Number.isInteger(since) && since >= 0)) {
        throw new CairnError('VALIDATION_ERROR', `--since ${o.since}: expected an event seq (a whole number, 0 or more). Nothing was written.`, {
          suggestions: ['cairn changes --json shows event seqs'],
        });
      }
      const options: ExportOptions = { includeArchived: o.includeArchived ?? false, ...(o.project ? { project: o.project } : {}), ...(since !== undefined ? { since } : {}) };
      const counts = o.format === 'markdown' ? await toMarkdown(o, options) : await toJsonl(o, options);
      const toStdout = o.format === 'jsonl' && (!o.out || o.out === '-');
      const summary = `Exported ${counts.projects} project(s), ${counts.tasks} task(s), ${counts.comments} comment(s), ${counts.events} event(s)${toStdout ? '' : ` to ${o.out}`}`;
      if (o.json && !toStdout) writeOut(`${JSON.stringify({ ...counts, out: o.out }, null, 2)}\n`);
      else if (!toStdout) writeOut(`${summary}\n`);
      else if (process.stderr.isTTY) process.stderr.write(`${summary}\n`);
    });
}
