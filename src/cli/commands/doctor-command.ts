/** `cairn doctor`: checks the workspace (a file: format, owner, schema, write access, SQLite integrity; PostgreSQL: src/store/postgres/doctor.ts) and says how to fix what it finds. */
import type { Command } from 'commander';
import { CairnError } from '../../core/errors.js';
import { diagnoseWorkspace, isPostgresUrl, type DoctorReport } from '../../workspace.js';
import { colorEnabled, painter } from '../render/color.js';
import { visibleStrings } from '../render/visible-text.js';
import { locateWorkspace, type GlobalOptions } from '../session.js';
import { stdoutIsTTY, writeOut } from '../stdout.js';

function human(r: DoctorReport): string {
  const paint = painter(colorEnabled({ isTTY: stdoutIsTTY() }));
  const width = Math.max(...r.checks.map((c) => c.name.length));
  const lines = [`Workspace ${r.workspace}`];
  for (const c of r.checks) lines.push(`  ${c.ok ? paint('green', 'ok  ') : paint('red', 'FAIL')} ${c.name.padEnd(width)}  ${c.detail}`);
  if (r.backups.length) lines.push(`Backups (newest first):\n${r.backups.map((b) => `  ${b}`).join('\n')}`);
  else if (!isPostgresUrl(r.workspace)) lines.push('Backups: none (Cairn makes one before each migration)');
  if (r.ok) lines.push(paint('green', 'No problems found.'));
  return lines.join('\n');
}

export function addDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check the workspace: a file (format, owner, schema, write access, SQLite quick_check and integrity_check) or PostgreSQL (reachable, schema, feed notifications, processes connected); never changes it',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  cairn doctor\n  cairn doctor --db other/.cairn/cairn.db --json\n  cairn doctor --db "postgres://cairn@db.internal/cairn?schema=team"\n\nExit code 0 when every check passes; otherwise the exit code of the problem found (its error is printed as usual).',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<GlobalOptions>();
      const { path } = locateWorkspace(o);
      const report = await diagnoseWorkspace(path);
      // --json: the report itself when healthy, else the problem as the usual error JSON with the report in details.
      if (!o.json) writeOut(`${human(visibleStrings(report))}\n`);
      else if (report.ok) writeOut(`${JSON.stringify(report, null, 2)}\n`);
      if (report.problem) {
        throw new CairnError(report.problem.code, report.problem.message, { suggestions: report.problem.suggestions, details: { report } });
      }
    });
}
