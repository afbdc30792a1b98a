/**
 * Commands that other adapters add to the CLI without editing it: each entry names a module that
 * registers subcommands on its group. The module is imported only when its command runs.
 *
 * To add one, append an entry here and export `register(command, runtime)` from the module:
 *
 * @example
 * // src/http/token-cli.ts
 * export function registerTokenCommands(cmd: Command, rt: CliRuntime): void {
 *   cmd.command('list').description('List tokens').action(async (_o, c: Command) => {
 *     const g = rt.globals(c);
 *     rt.print({ tokens: [] }, g.json, (out) => `${out.tokens.length} tokens`);
 *   });
 * }
 */
import { visibleStrings } from './render/visible-text.js';
import { colorEnabled, painter } from './render/color.js';
import { table } from './render/table.js';
import { humanTime } from './render/time.js';
import type { Command } from 'commander';
import { locateWorkspace, openSession, resolveActor, type GlobalOptions } from './session.js';
import { stdoutIsTTY, writeOut } from './stdout.js';

export interface CliExtension {
  /** The top-level command word (`token`). */
  name: string;
  summary: string;
  /** Module path relative to dist/cli/. */
  module: string;
  /** Its export: `(command, runtime) => void`, adding subcommands and actions to `command`. */
  register: string;
  /** The ops its commands run: they get no binding (bindings.ts), so each has one command, this extension's. */
  ops?: readonly string[];
}

export const EXTENSIONS: readonly CliExtension[] = [
  {
    name: 'token',
    summary: 'Bearer tokens for cairn serve: create | list | revoke',
    module: '../http/token-cli.js',
    register: 'registerTokenCommands',
    ops: ['create_token', 'list_tokens', 'revoke_token'],
  },
  { name: 'sync', summary: 'Deliver the outbox to the remote cairn serve now (CAIRN_URL / --remote)', module: '../remote/outbox-cli.js', register: 'registerSyncCommand' },
  { name: 'repos', summary: 'Repositories this machine knows, for targets named by package or repo slug: list | add | forget', module: '../registry/repos-cli.js', register: 'registerReposCommands' },
  { name: 'outbox', summary: 'Writes waiting for the remote server, and those it refused: list | retry', module: '../remote/outbox-cli.js', register: 'registerOutboxCommands' },
];

/** What an extension gets from the CLI: the global options, the workspace, the actor, and output in the CLI's two modes. */
export interface CliRuntime {
  globals(cmd: Command): GlobalOptions;
  locateWorkspace: typeof locateWorkspace;
  openSession: typeof openSession;
  resolveActor: typeof resolveActor;
  /** JSON under --json (exactly `out`), else the text `human(out)`. Throw CairnError for failures: main maps it. */
  print<T>(out: T, json: boolean | undefined, human: (out: T) => string): void;
  /** An aligned table with a header row, as the CLI's own lists print. */
  table(headers: string[], rows: string[][]): string;
  /** A time for people: local and relative ("14:05 (in 28 min)"); --json output keeps ISO. */
  time(iso: string): string;
}

export const cliRuntime: CliRuntime = {
  globals: (cmd) => cmd.optsWithGlobals<GlobalOptions>(),
  locateWorkspace,
  openSession,
  resolveActor,
  print: (out, json, human) => writeOut(`${json ? JSON.stringify(out, null, 2) : human(visibleStrings(out))}\n`),
  table: (headers, rows) => table(headers, rows, { paint: painter(colorEnabled({ isTTY: stdoutIsTTY() })) }),
  time: humanTime,
};
