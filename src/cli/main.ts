/** The `cairn` entry: parse argv, run the command, map any failure to JSON or a message and an exit code. */
// The profiles' workflow templates, registered before any op runs (create_project and import name them).
import '../profiles/templates.js';
import type { CommanderError } from 'commander';
import type { CairnError } from '../core/errors.js';
import { plainMcpOptions, runPlainMcp } from './commands/mcp-fast.js';
import { EXIT_OK, takeRequestedExit } from './exit-codes.js';

export { useImporter } from './load-module.js';

/** Global options that take a value, so the scan for the command word can skip their values. */
const VALUE_OPTIONS = new Set(['--db', '--as', '--remote']);

/** Where the first command word sits in argv (after global options), without parsing; -1 when there is none. */
function commandIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1 < args.length ? i + 1 : -1;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return i;
  }
  return -1;
}

/** The first command word in argv (after global options), without parsing. */
export function commandWord(args: readonly string[]): string | undefined {
  const at = commandIndex(args);
  return at < 0 ? undefined : args[at];
}

/** `--json` anywhere before `--`, so even argument errors are reported as JSON. */
function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

async function fromCommander(err: CommanderError): Promise<CairnError> {
  const { CairnError } = await import('../core/errors.js');
  const message = err.message.replace(/^error: /, '');
  return new CairnError('VALIDATION_ERROR', `${message.charAt(0).toUpperCase()}${message.slice(1)}`, {
    suggestions: ['cairn --help, or cairn <command> --help'],
    details: { commanderCode: err.code },
  });
}

/** Runs the CLI and resolves to the exit code (it never calls process.exit, so output is flushed and servers keep running). */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const args = argv.slice(2);
  const json = wantsJson(args);
  try {
    const at = commandIndex(args);
    const word = at < 0 ? undefined : args[at];
    // What hosts spawn: served without loading commander or the CLI (mcp-fast.ts is part of this file's
    // bundle, not a chunk of its own), so initialize is answered about as early as the standalone entry answers it.
    const mcp = word === 'mcp' ? plainMcpOptions(args) : undefined;
    if (mcp) {
      await runPlainMcp(mcp);
      return EXIT_OK;
    }
    const { baseProgram, lightProgram } = await import('./program-base.js');
    // `cairn --version` needs no command at all; `mcp` and `serve` only hand over to a server module.
    const versionOnly = !word && (args.includes('--version') || args.includes('-V'));
    const program = versionOnly ? baseProgram() : (word && (await lightProgram(word, commandWord(args.slice(at + 1))))) || (await (await import('./program.js')).buildProgram(word));
    await program.parseAsync([...argv]);
    return takeRequestedExit();
  } catch (err) {
    // Loaded on failure only: a command that succeeds never needs them (start-up time).
    const { reportError } = await import('./report-error.js');
    // Imported here, not up front: the `cairn mcp` fast path never loads commander (when commander threw, it is loaded already).
    if (err instanceof (await import('commander')).CommanderError) {
      // Help and version output are not failures; `cairn` or `cairn project` alone show help and exit 1.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT_OK;
      if (err.code === 'commander.help' || err.code === 'commander.executeSubCommandAsync') return err.exitCode;
      return reportError(await fromCommander(err), json);
    }
    return reportError(err, json);
  }
}
