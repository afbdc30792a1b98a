/**
 * `cairn db copy --to TARGET`: the whole workspace into an empty one on the same or the other engine
 * (SQLite file ⇄ PostgreSQL). `cairn db status` and `cairn db migrate`: its schema, looked at and
 * brought up to date at a moment the operator chooses.
 */
import type { Command } from 'commander';
import { CairnError } from '../../core/errors.js';
import { copyWorkspace, isPostgresUrl, migrateSchema, schemaStatus, type SchemaReport } from '../../workspace.js';
import { locateWorkspace, type GlobalOptions } from '../session.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeOut } from '../stdout.js';
import { EXIT_CODES, exitWith } from '../exit-codes.js';

export function addDbCommand(program: Command): void {
  const db = program.command('db').description('The workspace database: its schema, migrations, and copies between engines');
  db.command('status')
    .description('Show the engine, the schema version and whether this Cairn can open it (changes nothing); exits 1 when the schema is newer than this Cairn')
    .addHelpText('after', '\nExamples:\n  cairn db status\n  cairn db status --db "postgres://cairn@db.internal/cairn?schema=team" --json')
    .action(async (_o: unknown, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const r = await schemaStatus(locateWorkspace(g).path);
      writeOut(g.json ? `${JSON.stringify(r, null, 2)}\n` : statusText(r));
      if (r.state === 'newer') exitWith(EXIT_CODES.invalid);
    });
  db.command('migrate')
    .description('Apply the schema migrations this Cairn has and the workspace lacks (each Cairn also does on open); PostgreSQL replicas take a lock so only one migrates')
    .option('--dry-run', 'list the migrations it would apply, change nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  cairn db migrate --dry-run\n  cairn db migrate --db "postgres://cairn@db.internal/cairn?schema=team"\n\nA SQLite file is copied to <file>.bak-v<version>-<time> before it is migrated.',
    )
    .action(async (o: { dryRun?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const r = await migrateSchema(locateWorkspace(g).path, o.dryRun === true);
      writeOut(g.json ? `${JSON.stringify(r, null, 2)}\n` : migrateText(r, o.dryRun === true));
    });
  db.command('copy')
    .description('Copy the workspace (every project, task, comment, event and token, ids and numbers kept) into an empty SQLite file or PostgreSQL schema')
    .requiredOption('--to <target>', 'an empty workspace: a file path, or postgres://USER:PASSWORD@HOST/DB?schema=NAME')
    .addHelpText(
      'after',
      '\nExamples:\n  cairn db copy --to "postgres://cairn:secret@db.internal/cairn?schema=team"\n  cairn db copy --db "postgres://cairn:secret@db.internal/cairn" --to backup/.cairn/cairn.db\n\nThe source is the workspace --db, CAIRN_DB or the nearest .cairn/ names. The target must hold no workspace yet; a copy that fails leaves it as it was.',
    )
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

const stepLines = (steps: SchemaReport['pending']) => steps.map((m) => `  ${String(m.version).padStart(3)}  ${m.name}`).join('\n');

function statusText(r: SchemaReport): string {
  const head = `${r.location} (${r.engine})\n`;
  switch (r.state) {
    case 'none':
      return `${head}No workspace yet: the first write (or cairn init) creates it at schema version ${r.latestSchemaVersion}.\n`;
    case 'current':
      return `${head}Schema version ${r.schemaVersion}: current; this Cairn opens it.\n`;
    case 'newer':
      return `${head}Schema version ${r.schemaVersion} is newer than this Cairn understands (${r.latestSchemaVersion}): upgrade Cairn to open it (npm install -g cairn-tasks@latest).\n`;
    case 'older':
      return `${head}Schema version ${r.schemaVersion}; this Cairn has ${r.latestSchemaVersion} and applies ${r.pending.length === 1 ? 'this migration' : `these ${r.pending.length} migrations`} on open, or now with cairn db migrate:\n${stepLines(r.pending)}\n`;
  }
}

function migrateText(r: SchemaReport, dryRun: boolean): string {
  if (dryRun)
    return r.pending.length
      ? `${r.location} (${r.engine}) is at schema version ${r.schemaVersion}; cairn db migrate would apply:\n${stepLines(r.pending)}\nNothing was changed.\n`
      : `${r.location} (${r.engine}) is at schema version ${r.schemaVersion}: nothing to apply.\n`;
  if (!r.applied?.length) return `${r.location} (${r.engine}) is at schema version ${r.schemaVersion}: nothing to apply.\n`;
  return `Migrated ${r.location} (${r.engine}) to schema version ${r.schemaVersion}:\n${stepLines(r.applied)}\n${r.backup ? `The file as it was is kept at ${r.backup}.\n` : ''}`;
}
