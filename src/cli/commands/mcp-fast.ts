/**
 * `cairn mcp …` started without commander or the CLI's modules, so the host's `initialize` is answered
 * as soon as the standalone entry answers it (src/mcp/stdio-start.ts). Only a plain command line takes
 * this path: anything else (help, a typo, an extra word, `--`) goes through the full parser, whose
 * messages and exit codes stay the ones users see. mcp-command.ts declares the same options for help.
 */
import { createRequire } from 'node:module';
import type * as Util from 'node:util';
import { loadModule } from '../load-module.js';

// Required, not imported, and read off the module directly: on Node 22+ importing node:util (or
// copying its exports, as a bundle's interop does) evaluates its lazy exports. This module is part
// of the CLI's entry, so that would add a few milliseconds to every command's start.
const { parseArgs } = createRequire(import.meta.url)('node:util') as typeof Util;

/** The options `cairn mcp` passes on, named as runMcpStdio takes them. */
export interface McpStartOptions {
  db?: string;
  actor?: string;
  remote?: string;
  project?: string;
  toolsets?: string;
  readOnly?: boolean;
  profile?: string;
}

/** The server module's own signature: loaded at run time (start-up), checked at compile time. */
type StdioStart = typeof import('../../mcp/stdio-start.js');

/** The program's global options and `cairn mcp`'s own, as commander declares them. */
const OPTIONS = {
  db: { type: 'string' },
  as: { type: 'string' },
  remote: { type: 'string' },
  json: { type: 'boolean' },
  project: { type: 'string' },
  toolsets: { type: 'string' },
  'read-only': { type: 'boolean' },
  profile: { type: 'string' },
} as const;

/** The options of `args` (argv after the script) if it is a plain `cairn mcp` line that commander would accept as is; else undefined. */
export function plainMcpOptions(args: readonly string[]): McpStartOptions | undefined {
  if (args.includes('--')) return undefined;
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
  if (parsed.positionals.length !== 1 || parsed.positionals[0] !== 'mcp') return undefined;
  const v = parsed.values;
  // Unset options stay undefined, as commander leaves them, so the server applies its env and defaults.
  return { db: v.db, actor: v.as, remote: v.remote, project: v.project, toolsets: v.toolsets, readOnly: v['read-only'], profile: v.profile };
}

/** Serves until the server shuts down; a failure to start rejects, for the CLI to report as any command's. */
export async function runPlainMcp(opts: McpStartOptions): Promise<void> {
  const m = await loadModule<StdioStart>('../mcp/stdio-start.js', 'cairn mcp');
  await m.startMcpStdio(opts);
}
