/** Assembles the `cairn` program: global options, one command per binding, the built-in commands and the extensions. */
import type { Command } from 'commander';
import { findOp } from '../ops/index.js';
import { addBinding, examples } from './binding-command.js';
import { BINDINGS } from './bindings.js';
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
import { baseProgram } from './program-base.js';

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
  for (const b of BINDINGS) addBinding(program, groups, b, findOp);
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
  program.addHelpText(
    'after',
    examples(['cairn init --key API --name "API server"', 'cairn add "Add login" --priority high', 'cairn ready', 'cairn start API-1', 'cairn done API-1', 'cairn list --json']),
  );
  return program;
}
