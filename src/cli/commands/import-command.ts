/** `cairn import PATH`: Cairn exports and other tools' task files into the workspace, in one transaction; a progress bar on a terminal. */
import type { Command } from 'commander';
import { CairnError } from '../../core/errors.js';
import type { ImportReport } from '../../core/services/import/index.js';
import { SOURCES, type SourceName } from '../../core/model/transfer.js';
import { loadOp } from '../../ops/op-modules.js';
import { runOp } from '../../ops/run-op.js';
import { colorEnabled, painter } from '../render/color.js';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DB_FILE, WORKSPACE_DIR } from '../../workspace.js';
import { locateWorkspace, openSession, type GlobalOptions } from '../session.js';
import { writeGitignore } from './workspace-gitignore.js';
import { stdoutIsTTY, writeOut } from '../stdout.js';

interface ImportFlags extends GlobalOptions {
  from?: string;
  project?: string;
  dryRun?: boolean;
}

/** A bar on stderr, redrawn at most every 100 ms; nothing when stderr is not a terminal (piped, CI). */
function progressBar(enabled: boolean) {
  let last = 0;
  let shown = false;
  return {
    update(done: number) {
      if (!enabled) return;
      const now = performance.now();
      if (now - last < 100 && done < 1) return;
      last = now;
      const width = 30;
      const full = Math.round(done * width);
      process.stderr.write(`\r[${'#'.repeat(full)}${'-'.repeat(width - full)}] ${Math.round(done * 100)}%`);
      shown = true;
    },
    end() {
      if (shown) process.stderr.write('\r\x1b[2K');
    },
  };
}

function human(r: ImportReport): string {
  const paint = painter(colorEnabled({ isTTY: stdoutIsTTY() }));
  const verb = r.dryRun ? 'Would import' : 'Imported';
  const lines = [
    `${paint('green', verb)} from ${r.source}: ${r.tasks.created} task(s) ${r.dryRun ? 'to create' : 'created'}, ${r.tasks.updated} ${r.dryRun ? 'to update' : 'updated'}, ${r.tasks.unchanged} left alone`,
  ];
  if (r.projects.created.length) lines.push(`Projects ${r.dryRun ? 'to create' : 'created'}: ${r.projects.created.join(', ')}`);
  if (r.projects.existing.length) lines.push(`Into existing projects: ${r.projects.existing.join(', ')}`);
  for (const p of r.projects.rooted) lines.push(`${r.dryRun ? 'Would root' : 'Rooted'} ${p.key} at ${p.root} (${p.because}): commands and agents inside it use ${p.key}`);
  if (r.renumbered.length) {
    lines.push(
      r.source === 'cairn'
        ? `${r.renumbered.length} display id(s) were taken here and got new numbers (recorded in each task's history):`
        : `${r.renumbered.length} task(s) have other numbers here than in ${r.source} (each keeps its ${r.source} id as its origin, shown by cairn show):`,
    );
    for (const m of r.renumbered) lines.push(`  ${m.from} → ${m.to}`);
  }
  for (const w of r.warnings) lines.push(paint('yellow', `warning: ${w}`));
  if (r.dryRun) lines.push(paint('dim', 'Dry run: nothing was written.'));
  return lines.join('\n');
}

export function addImportCommand(program: Command): void {
  program
    .command('import')
    .argument('<path>', 'a Cairn export (.jsonl), castle.db, a DevPlanner workspace, or a folder with .taskmaster/, backlog/ or .beads/')
    .description('Import tasks from a Cairn export or another tool; importing the same source again updates what changed and duplicates nothing')
    .option('--from <format>', `${SOURCES.join('|')} (default: detected)`)
    .option('--project <KEY>', 'put every task in this project (created when missing)')
    .option('--dry-run', 'print what would be created, updated and left alone; write nothing')
    .addHelpText('after', '\nExamples:\n  cairn import backup.jsonl\n  cairn import . --from taskmaster --project APP\n  cairn import ~/castle.db --dry-run\n  cairn import .beads/issues.jsonl --json')
    .action(async (path: string, _opts: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<ImportFlags>();
      if (o.from !== undefined && !SOURCES.includes(o.from as SourceName)) {
        throw new CairnError('VALIDATION_ERROR', `--from ${o.from}: expected one of ${SOURCES.join(', ')}. Nothing was imported.`, { suggestions: ['Leave --from out to detect the format'] });
      }
      // Moving in: with no workspace anywhere, an import (a deliberate write of a whole repository's
      // tasks) makes one here, as `cairn init` would, rather than answer NO_WORKSPACE.
      const found = locateWorkspace(o);
      const remote = Boolean(o.remote ?? process.env.CAIRN_URL);
      const initialize = !o.dryRun && !remote && found.source === 'default';
      const here = join(process.cwd(), WORKSPACE_DIR, DB_FILE);
      const hadFolder = existsSync(dirname(here));
      const session = openSession(initialize ? { ...o, db: here } : o, { write: !o.dryRun });
      const bar = progressBar(process.stderr.isTTY === true && !o.json);
      let failed = false;
      try {
        session.ctx.onProgress = (d) => bar.update(d);
        const report = (await runOp((await loadOp('import_tasks'))!, session.ctx, {
          // A remote server reads the path on its own machine: send it absolute.
          path: resolve(path),
          ...(o.from ? { from: o.from } : {}),
          ...(o.project !== undefined ? { project: o.project } : {}),
          dryRun: o.dryRun ?? false,
        })) as ImportReport;
        bar.end();
        const gitignore = initialize ? writeGitignore(here) : null;
        const out = initialize ? { ...report, initialized: { workspace: here, gitignore } } : report;
        const made = initialize ? `Initialized Cairn workspace ${here}${gitignore ? ' (with .cairn/.gitignore)' : ''}: there was none here or above\n` : '';
        writeOut(`${o.json ? JSON.stringify(out, null, 2) : made + human(report)}\n`);
      } catch (err) {
        failed = true;
        throw err;
      } finally {
        bar.end();
        await session.close();
        // A refused import changes nothing, and that includes the workspace it would have made.
        if (failed && initialize && !hadFolder) rmSync(dirname(here), { recursive: true, force: true });
      }
    });
}
