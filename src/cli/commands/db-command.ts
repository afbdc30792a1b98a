/** `cairn db copy --to TARGET`: the whole workspace into an empty one on the same or the other engine (SQLite file ⇄ PostgreSQL). */
import type { Command } from 'commander';
import { CairnError } from '../../core/errors.js';
import { copyWorkspace, isPostgresUrl } from '../../workspace.js';
import { locateWorkspace, type GlobalOptions } from '../session.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeOut } from '../stdout.js';

export function addDbCommand(program: Command): void {
  const db = program.command('db').description('Move a workspace between engines');
  db.command('copy')
    .description('Copy the workspace (every project, task, comment, event and token, ids and numbers kept) into an empty SQLite file or PostgreSQL schema')
    .requiredOption('--to <target>', 'an empty workspace: a file path, or postgres://USER:PASSWORD@HOST/DB?schema=NAME')
    .addHelpText('after', '\nExamples:\n  cairn db copy --to "postgres://cairn:secret@db.internal/cairn?schema=team"\n  cairn db copy --db "postgres://cairn:secret@db.internal/cairn" --to backup/.cairn/cairn.db\n\nThe source is the workspace --db, CAIRN_DB or the nearest .cairn/ names. The target must hold no workspace yet; a copy that fails leaves it as it was.')
    .action(async (opts: { to: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const from = locateWorkspace(g).path;
      if (!isPostgresUrl(from) && !existsSync(from)) {
        throw new CairnError('NO_WORKSPACE', `There is no workspace at ${from} to copy. Nothing was copied.`, { suggestions: ['--db PATH or CAIRN_DB=PATH names the workspace to copy'] });
      }
      const to = isPostgresUrl(opts.to) ? opts.to : resolve(opts.to);
      const started = Date.now();
      const tty = process.stderr.isTTY && !g.json;
      const report = await copyWorkspace(from, to, tty ? (table, n) => process.stderr.write(`\r${table}: ${n} rows   `) : undefined);
      if (tty) process.stderr.write('\r\x1b[K');
      const seconds = (Date.now() - started) / 1000;
      if (g.json) writeOut(`${JSON.stringify({ ...report, seconds }, null, 2)}\n`);
      else {
        const r = report.rows;
        writeOut(`Copied ${report.from} → ${report.to} in ${seconds.toFixed(1)} s: ${r.projects} projects, ${r.tasks} tasks, ${r.comments} comments, ${r.events} events, ${r.api_tokens} tokens.\n`);
      }
    });
}
