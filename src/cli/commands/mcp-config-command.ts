/** `cairn mcp-config`: prints the configuration an agent host needs to start `cairn mcp`, ready to paste. */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isPostgresUrl } from '../../workspace.js';
import { colorEnabled, painter } from '../render/color.js';
import type { GlobalOptions } from '../session.js';
import {
  AGENT_HOSTS,
  claudeAddCommand,
  CLIENTS,
  clientConfig,
  FOLDER_VARS,
  PACKAGE_NAME,
  parseClient,
  parseProfile,
  PASSWORD_NOTE,
  projectDb,
  serverEntry,
  whereToPaste,
  type Client,
} from './host-config.js';
import { stdoutIsTTY, writeOut } from '../stdout.js';

interface McpConfigOptions extends GlobalOptions {
  client?: string;
  profile?: string;
  project?: string;
  absolute?: boolean;
}

export interface McpConfigResult {
  client: Client;
  /** The JSON the host takes. */
  config: Record<string, unknown>;
  /** Hints for stderr: where it goes, what is missing. */
  notes: string[];
  /** claude-code only: the `claude mcp add` line. */
  command?: string;
}

export function mcpConfig(o: McpConfigOptions): McpConfigResult {
  const client = parseClient(o.client);
  const profile = parseProfile(o.profile);
  const fromProject = o.project !== undefined ? projectDb(o.project) : undefined;
  // --db names the database outright; otherwise --project's workspace; otherwise none (the server looks from its working directory).
  const db = o.db ? (isPostgresUrl(o.db) ? o.db : resolve(o.db)) : fromProject?.db;
  // A project host's file is committed: portable unless --absolute (a project's own workspace is then the host's folder, not a path).
  const portable = (AGENT_HOSTS as readonly string[]).includes(client) && !o.absolute;
  const folderVar = FOLDER_VARS[client];
  const entry = portable
    ? serverEntry({ profile, ...(o.db ? { db } : {}), dbVia: 'args', launch: 'portable', ...(folderVar ? { folderVar } : {}) })
    : serverEntry({ profile, db, projectPath: fromProject?.projectPath, dbVia: client === 'acp' ? 'env' : 'args' });
  // claude-code's human output has its own headings.
  const notes = client === 'claude-code' ? [] : [`Goes in ${whereToPaste(client)}.`];
  if (entry.passwordLeftOut) notes.push(PASSWORD_NOTE);
  if (db && !isPostgresUrl(db) && !existsSync(db)) notes.push(`There is no workspace at ${db} yet: run \`cairn init\` in that folder.`);
  if (portable && entry.command === 'npx')
    notes.push(`${PACKAGE_NAME} is not on this PATH, so the entry runs it with npx (npm install -g ${PACKAGE_NAME} puts cairn there; --absolute names this install by path).`);
  if (!db && !portable && client !== 'claude-code') {
    notes.push(
      "No --project given: the server looks for .cairn/ from the folder the host starts it in, then in and above the client's MCP roots (the folders open in the host); with neither it answers NO_WORKSPACE and creates nothing. Add --project PATH to pin it.",
    );
  }
  return { client, config: clientConfig(client, entry), notes, ...(client === 'claude-code' ? { command: claudeAddCommand(entry) } : {}) };
}

function human(r: McpConfigResult): string {
  const json = JSON.stringify(r.config, null, 2);
  if (r.client !== 'claude-code') return json;
  const paint = painter(colorEnabled({ isTTY: stdoutIsTTY() }));
  return [
    paint('dim', '# .mcp.json at the repository root (shared with everyone who opens the project in Claude Code):'),
    json,
    '',
    paint('dim', '# or register it for yourself with the Claude Code CLI (add --scope project to write the .mcp.json above):'),
    r.command!,
  ].join('\n');
}

export function addMcpConfigCommand(program: Command): void {
  program
    .command('mcp-config')
    .description("Print an agent host's configuration for cairn mcp, ready to paste")
    .option('--client <host>', `the host: ${CLIENTS.join('|')}`)
    .option('--profile <name>', 'serve a seed profile: castle|tx|devplanner|ade (default: native tools)')
    .option('--project <path>', 'repository whose workspace (PATH/.cairn/cairn.db) the server uses')
    .option('--absolute', 'name node, bin/cairn.js and the database by absolute path (the default for claude-desktop and acp)')
    .addHelpText(
      'after',
      [
        '',
        'For the hosts whose file a team commits (claude-code, vscode, cursor) the entry is portable: cairn by',
        "name when it is on PATH, else npx -y cairn-tasks; the workspace is the host's folder (${workspaceFolder}",
        'in VS Code and Cursor) or found from where the host starts the server. For claude-desktop and acp,',
        "and with --absolute, the command is the absolute path of node with this package's bin/cairn.js, because",
        "GUI hosts often start servers without your shell's PATH. Run it again after moving Cairn or Node.",
        '',
        'Examples:',
        '  cairn mcp-config --client claude-code',
        '  cairn mcp-config --client claude-desktop --project ~/src/my-repo',
        '  cairn mcp-config --client vscode --json',
        '  cairn mcp-config --client acp --profile castle --project .',
      ].join('\n'),
    )
    .action((_opts: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<McpConfigOptions>();
      const r = mcpConfig(o);
      // --json prints the configuration alone (to pipe into a file); the notes still reach stderr.
      writeOut(`${o.json ? JSON.stringify(r.config, null, 2) : human(r)}\n`);
      const paint = painter(colorEnabled(process.stderr));
      for (const note of r.notes) process.stderr.write(`${paint('dim', `# ${note}`)}\n`);
    });
}
