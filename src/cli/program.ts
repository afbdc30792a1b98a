/** Assembles the `cairn` program: global options, one command per binding, the built-in commands and the extensions. */
import type { Command } from 'commander';
import { CairnError } from '../core/errors.js';
import { findOp } from '../ops/index.js';
import { BINDINGS, type Binding } from './bindings.js';
import { addCompletionCommand } from './commands/completion-command.js';
import { addDoctorCommand } from './commands/doctor-command.js';
import { addDbCommand } from './commands/db-command.js';
import { addExportCommand } from './commands/export-command.js';
import { addImportCommand } from './commands/import-command.js';
import { addInitCommand } from './commands/init-command.js';
import { addMcpCommand } from './commands/mcp-command.js';
import { addMcpConfigCommand } from './commands/mcp-config-command.js';
import { addServeCommand } from './commands/serve-command.js';
import { cliRuntime, EXTENSIONS } from './extensions.js';
import { loadModule } from './load-module.js';
import { bindCommand, type BoundCommand } from './op-command.js';
import { baseProgram } from './program-base.js';
import { runBound } from './run-bound.js';

const GROUPS: Record<string, string> = { project: 'Manage projects: list | create | show | update | archive' };

function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

function addBinding(program: Command, groups: Map<string, Command>, b: Binding): void {
  const op = findOp(b.op);
  if (!op) throw new Error(`Binding "${b.command}" names unknown op ${b.op}`);
  const words = b.command.split(' ');
  let parent = program;
  if (words.length === 2) {
    const group = words[0]!;
    if (!groups.has(group)) groups.set(group, program.command(group).description(GROUPS[group] ?? group));
    parent = groups.get(group)!;
  }
  const cmd = parent.command(words[words.length - 1]!).summary(b.summary).description(`${b.summary}.\nRuns the ${op.name} operation; --json prints its output unchanged.`);
  const bound = bindCommand(cmd, b, op);
  const alt = b.alternate && bindAlternate(cmd, b);
  cmd.addHelpText('after', examples(b.examples));
  cmd.action(async (...args: unknown[]) => {
    const self = args[args.length - 1] as Command;
    const positionals = args.slice(0, -2);
    const opts = self.optsWithGlobals();
    if (alt && opts[alt.binding.alternate!.flag] === true) {
      if (positionals.some((a) => a !== undefined)) {
        throw new CairnError('VALIDATION_ERROR', `cairn ${b.command} takes an id or --${alt.binding.alternate!.flag}, not both.`, { suggestions: [`cairn ${b.command} --help`] });
      }
      await runBound(alt, [], opts);
    } else await runBound(bound, positionals, opts);
  });
}

/** The alternate op's flags on the same command (those it shares are bound once), and the switch that selects it. */
function bindAlternate(cmd: Command, b: Binding): BoundCommand {
  const spec = b.alternate!;
  const op = findOp(spec.op);
  if (!op) throw new Error(`Binding "${b.command}" names unknown alternate op ${spec.op}`);
  const taken = new Set(cmd.options.map((o) => o.long ?? ''));
  cmd.option(`--${spec.flag}`, spec.description);
  const { alternate, ...rest } = b;
  return bindCommand(cmd, { ...rest, alternate, args: [], command: `${b.command} --${spec.flag}` }, op, taken);
}

/** Extensions are listed in help; the one being run is loaded and registers its subcommands before parsing. */
async function addExtensions(program: Command, word: string | undefined): Promise<void> {
  for (const ext of EXTENSIONS) {
    const cmd = program.command(ext.name).description(ext.summary);
    if (ext.name !== word) continue;
    const mod = await loadModule<Record<string, (c: Command, rt: typeof cliRuntime) => void>>(ext.module, `cairn ${ext.name}`);
    const register = mod[ext.register];
    if (typeof register !== 'function') throw new Error(`${ext.module} does not export ${ext.register}`);
    register(cmd, cliRuntime);
  }
}

export async function buildProgram(word: string | undefined): Promise<Command> {
  const program = baseProgram();
  addInitCommand(program);
  const groups = new Map<string, Command>();
  for (const b of BINDINGS) addBinding(program, groups, b);
  addMcpCommand(program);
  addMcpConfigCommand(program);
  addServeCommand(program);
  addExportCommand(program);
  addImportCommand(program);
  addDoctorCommand(program);
  addDbCommand(program);
  await addExtensions(program, word);
  // Last, so the script it prints covers every command above.
  addCompletionCommand(program);
  program.addHelpText('after', examples(['cairn init --key API --name "API server"', 'cairn add "Add login" --priority high', 'cairn ready', 'cairn start API-1', 'cairn done API-1', 'cairn list --json']));
  return program;
}
