/** `cairn mcp`: the MCP server over stdio, implemented in src/mcp/main.ts and loaded only when asked for. */
import type { Command } from 'commander';
import { loadModule } from '../load-module.js';

/** The server module's own signature: loaded at run time (start-up), checked at compile time. */
type McpMain = typeof import('../../mcp/main.js');

export function addMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Run the MCP server over stdio (for agent hosts)')
    .option('--project <key>', 'default project for tools that take one (env CAIRN_PROJECT)')
    .option('--toolsets <list>', 'toolsets to serve: tasks,projects,history,… or all (env CAIRN_TOOLSETS)')
    .option('--read-only', 'serve read tools only (env CAIRN_READ_ONLY)')
    .option('--profile <name>', "expose a seed's tool names and shapes: castle|tx|devplanner|ade")
    .addHelpText(
      'after',
      '\nExamples:\n  cairn mcp\n  cairn mcp --toolsets all --as agent:claude-1\n  cairn mcp --read-only --project API\n  cairn mcp --remote http://127.0.0.1:7420   (or CAIRN_URL + CAIRN_TOKEN)',
    )
    .action(async (_opts: unknown, cmd: Command) => {
      // --db and --as are program-wide; unset ones stay undefined so the server applies its env and defaults.
      const o = cmd.optsWithGlobals<{ db?: string; as?: string; project?: string; toolsets?: string; readOnly?: boolean; profile?: string; remote?: string }>();
      const m = await loadModule<McpMain>('../mcp/main.js', 'cairn mcp');
      await m.runMcpStdio({ db: o.db, project: o.project, toolsets: o.toolsets, readOnly: o.readOnly, actor: o.as, profile: o.profile, remote: o.remote });
    });
}
