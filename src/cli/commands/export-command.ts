/** `cairn export`: the workspace as JSONL (lossless, the default) or as markdown files, to a file, a folder or stdout. */
import type { Command } from 'commander';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { CairnError } from '../../core/errors.js';
import type { ExportResult } from '../../core/services/export.js';
import { loadOp } from '../../ops/op-modules.js';
import { runOp } from '../../ops/run-op.js';
import { openSession, type GlobalOptions } from '../session.js';
import { stdout, writeOut } from '../stdout.js';

interface ExportFlags extends GlobalOptions {
  format: string;
  project?: string;
  out?: string;
  includeArchived?: boolean;
  since?: string;
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
      const toStdout = o.format === 'jsonl' && (!o.out || o.out === '-');
      const session = openSession(o, { write: false });
      let counts: ExportResult;
      try {
        // Standard output is written as the export is read (memory stays flat on a slow pipe); a remote
        // server answers the JSONL itself, printed here.
        const out = stdout();
        if (toStdout && !session.ctx.remote) session.ctx.exportSink = async (chunk) => void (out.write(chunk) || (await once(out, 'drain')));
        counts = (await runOp((await loadOp('export_tasks'))!, session.ctx, {
          format: o.format,
          includeArchived: o.includeArchived ?? false,
          ...(toStdout ? {} : { out: resolve(o.out!) }),
          ...(o.project ? { project: o.project } : {}),
          ...(since !== undefined ? { since } : {}),
        })) as ExportResult;
        if (counts.jsonl !== undefined) writeOut(counts.jsonl);
      } finally {
        await session.close();
      }
      const summary = `Exported ${counts.projects} project(s), ${counts.tasks} task(s), ${counts.comments} comment(s), ${counts.events} event(s)${toStdout ? '' : ` to ${o.out}`}`;
      if (o.json && !toStdout) writeOut(`${JSON.stringify({ ...counts, out: o.out }, null, 2)}\n`);
      else if (!toStdout) writeOut(`${summary}\n`);
      else if (process.stderr.isTTY) process.stderr.write(`${summary}\n`);
    });
}
