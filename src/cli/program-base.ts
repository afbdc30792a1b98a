/** The bare `cairn` program: name, version, global options and error handling, shared by the full and the light builds. */
import { Command } from 'commander';
import { packageInfo } from '../package-info.js';
import { writeOut } from './stdout.js';

const version = (): string => packageInfo().version;

export function baseProgram(): Command {
  return new Command('cairn')
    .description('Cairn: a local-first task tracker for AI coding agents and the people who steer them.')
    .version(version(), '-V, --version')
    .option('--db <path>', 'workspace database (env CAIRN_DB; default: nearest .cairn/cairn.db)')
    .option('--as <name>', 'who is acting, recorded in history (env CAIRN_ACTOR; default: OS user)')
    .option('--remote <url>', 'work against a remote cairn serve instead of a local database (env CAIRN_URL, token CAIRN_TOKEN)')
    .option('--json', 'print machine-readable JSON (errors too)')
    .exitOverride()
    .configureOutput({ writeOut, outputError: () => undefined })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showSuggestionAfterError(true);
}

/**
 * Commands built without the rest: `mcp` and `serve` only hand over to a server module, and a
 * binding (`ready`, `project list`) needs its own op alone (program-command.ts). `next`: the word
 * after `word` (a group's subcommand). Undefined: build the full program.
 */
export async function lightProgram(word: string, next?: string): Promise<Command | undefined> {
  const program = baseProgram();
  if (word === 'mcp') (await import('./commands/mcp-command.js')).addMcpCommand(program);
  else if (word === 'serve') (await import('./commands/serve-command.js')).addServeCommand(program);
  else if (!(await (await import('./program-command.js')).addSingleBinding(program, word, next))) return undefined;
  return program;
}
