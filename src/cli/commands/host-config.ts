/**
 * How an agent host starts `cairn mcp`: one entry (command, args, env) built here, and per host the
 * document it reads (`cairn mcp-config`) or the project file it keeps (`cairn init --agent`).
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { CairnError } from '../../core/errors.js';
import { PROFILE_NAMES, PROFILE_SERVER_NAMES, type ProfileName } from '../../profiles/profile.js';
import { packageInfo } from '../../package-info.js';
import { hasPassword, withoutPassword } from '../../workspace.js';
import { DB_FILE, WORKSPACE_DIR } from '../../workspace.js';

export const CLIENTS = ['claude-code', 'claude-desktop', 'vscode', 'cursor', 'acp'] as const;
export type Client = (typeof CLIENTS)[number];

/** Hosts with a project config file that `cairn init --agent` can keep. */
export const AGENT_HOSTS = ['claude-code', 'vscode', 'cursor'] as const;
export type AgentHost = (typeof AGENT_HOSTS)[number];

/** The seed profiles `cairn mcp --profile` takes; none (or `native`) is Cairn's own tool surface. */
export const PROFILES = PROFILE_NAMES;
export type Profile = ProfileName;

export interface EnvVar {
  name: string;
  value: string;
}

/** What a host runs: `command args...` with `env` added to its environment, listed under `name`. */
export interface ServerEntry {
  /** The server's key in the host's config: `cairn`, or the name a seed's hosts know (`castle-tasks`, `tx`, `devplanner`). */
  name: string;
  command: string;
  args: string[];
  env: EnvVar[];
  /** The database URL's password was left out: the server reads it from PGPASSWORD or the password file. */
  passwordLeftOut?: boolean;
}

/** Said wherever a configuration had a PostgreSQL password left out of it. */
export const PASSWORD_NOTE =
  "The database password is not written into this configuration (it is often shared): the server reads it from PGPASSWORD in the host's environment, or from the password file ~/.pgpass (or the one PGPASSFILE names), as psql does.";

export interface EntryOptions {
  profile?: Profile | undefined;
  /** Absolute path of the workspace database the server should use; none: the server finds it from its working directory. */
  db?: string | undefined;
  /** Absolute path of the repository (only the castle profile's env carries it). */
  projectPath?: string | undefined;
  /** `args`: `--db PATH` on the command line (config files); `env`: the profile's variable (ACP, as Castle passes it). */
  dbVia: 'args' | 'env';
  /**
   * `portable` (files a team commits): `cairn` by name when this package's `cairn` is on PATH, else
   * `npx -y cairn-tasks`. `absolute` (the default; hosts started without the shell's PATH, such as
   * Claude Desktop): node and this package's bin/cairn.js by path.
   */
  launch?: 'portable' | 'absolute';
  /**
   * With `portable` and no `db`: how the host names the project folder in its args (`${workspaceFolder}`
   * for VS Code and Cursor), so the server is pointed at that folder's workspace. None: the server
   * finds `.cairn/` from the folder it starts in and the client's roots.
   */
  folderVar?: string;
}

/** The env variable each profile reads its database from (the seed's own name). */
const DB_ENV: Record<Profile | 'native', string> = { castle: 'CASTLE_DB_PATH', tx: 'TX_DB', devplanner: 'DEVPLANNER_WORKSPACE', ade: 'CAIRN_DB', native: 'CAIRN_DB' };

export function parseClient(value: string | undefined, valid: readonly string[] = CLIENTS, flag = '--client', command = 'cairn mcp-config'): Client {
  if (value && valid.includes(value)) return value as Client;
  const what = value ? `Unknown ${flag} "${value}"` : `${flag} is required`;
  throw new CairnError('VALIDATION_ERROR', `${what}. Valid hosts: ${valid.join(', ')}. Nothing was changed.`, {
    suggestions: valid.map((c) => `${command} ${flag} ${c}`),
    details: { valid: [...valid] },
  });
}

export function parseProfile(value: string | undefined): Profile | undefined {
  if (value === undefined || value === 'native') return undefined;
  if ((PROFILES as readonly string[]).includes(value)) return value as Profile;
  throw new CairnError('VALIDATION_ERROR', `Unknown --profile "${value}". Valid profiles: ${PROFILES.join(', ')} (omit --profile for Cairn's native tools). Nothing was changed.`, {
    suggestions: PROFILES.map((p) => `--profile ${p}`),
    details: { valid: [...PROFILES] },
  });
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** `PATH/.cairn/cairn.db` for a repository folder, with the folder resolved to its real absolute path. */
export function projectDb(projectPath: string): { projectPath: string; db: string } {
  const abs = resolve(projectPath);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    throw new CairnError('VALIDATION_ERROR', `--project must be an existing folder (the repository with the .cairn/ workspace), not "${projectPath}". Nothing was changed.`, {
      suggestions: ['--project .', '--project ~/src/my-repo'],
    });
  }
  const root = realpathSync(abs);
  return { projectPath: root, db: real(join(root, WORKSPACE_DIR, DB_FILE)) };
}

/**
 * This package's bin/cairn.js (dist/cli/commands/ → ../../../bin). Hosts get it as the first
 * argument of the node executable rather than a bare `cairn`: GUI hosts (Claude Desktop, VS Code,
 * Cursor) are often started without the login shell's PATH (nvm, Homebrew, npm's global prefix), so
 * `cairn` or even `node` may not be found; absolute paths work the same for global, local and npx installs.
 */
export function binPath(): string {
  return real(join(packageInfo().root, 'bin', 'cairn.js'));
}

/** The npm package that installs `cairn` (npm's `cairn` is an unrelated project). */
export const PACKAGE_NAME = 'cairn-tasks';

/** Whether `cairn` on this PATH is this package's command (and not npm's unrelated `cairn`). */
export function cairnOnPath(path = process.env.PATH ?? ''): boolean {
  const names = process.platform === 'win32' ? ['cairn.cmd', 'cairn.exe'] : ['cairn'];
  for (const dir of path.split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const file = join(dir, name);
      if (!existsSync(file)) continue;
      // The first one found is the one a shell would run; npm links it to <package>/bin/cairn.js.
      if (process.platform === 'win32') return true;
      try {
        const pkg = JSON.parse(readFileSync(join(dirname(realpathSync(file)), '..', 'package.json'), 'utf8')) as { name?: string };
        return pkg.name === PACKAGE_NAME;
      } catch {
        return false;
      }
    }
  }
  return false;
}

/** The command and the arguments before `mcp`. */
function launcher(launch: EntryOptions['launch']): { command: string; args: string[] } {
  if (launch !== 'portable') return { command: process.execPath, args: [binPath()] };
  return cairnOnPath() ? { command: 'cairn', args: [] } : { command: 'npx', args: ['-y', PACKAGE_NAME] };
}

/** The one definition of how a host starts the server; every client format below is built from it. */
export function serverEntry(o: EntryOptions): ServerEntry {
  // A configuration file is read, copied and committed: it names the secret's place, never the secret.
  const passwordLeftOut = o.db !== undefined && hasPassword(o.db);
  if (passwordLeftOut) o = { ...o, db: withoutPassword(o.db!) };
  const start = launcher(o.launch);
  const args = [...start.args, 'mcp'];
  if (o.profile) args.push('--profile', o.profile);
  const env: EnvVar[] = [];
  if (o.dbVia === 'args') {
    if (o.db) args.push('--db', o.db);
    else if (o.launch === 'portable' && o.folderVar) args.push('--db', `${o.folderVar}/${WORKSPACE_DIR}/${DB_FILE}`);
  } else {
    if (o.db) env.push({ name: DB_ENV[o.profile ?? 'native'], value: o.db });
    if (o.profile === 'castle' && o.projectPath) env.push({ name: 'CASTLE_PROJECT_PATH', value: o.projectPath });
  }
  return { name: o.profile ? PROFILE_SERVER_NAMES[o.profile] : 'cairn', command: start.command, args, env, ...(passwordLeftOut ? { passwordLeftOut } : {}) };
}

/** The entry as a host's config file spells it (env as an object, only when there is one). */
function fileEntry(e: ServerEntry, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, command: e.command, args: e.args, ...(e.env.length ? { env: Object.fromEntries(e.env.map((v) => [v.name, v.value])) } : {}) };
}

/** The key under which a host's config file lists servers. */
function serversKey(client: Client): 'servers' | 'mcpServers' {
  return client === 'vscode' ? 'servers' : 'mcpServers';
}

/** The value stored under `servers.cairn` / `mcpServers.cairn` for a config-file host. */
function hostEntry(client: Client, e: ServerEntry): Record<string, unknown> {
  return client === 'vscode' ? fileEntry(e, { type: 'stdio' }) : fileEntry(e);
}

/** The JSON a host takes: a whole config document, or for ACP the `mcpServers` item of `session/new` (env as [{name, value}]). */
export function clientConfig(client: Client, e: ServerEntry): Record<string, unknown> {
  if (client === 'acp') return { name: e.name, command: e.command, args: e.args, env: e.env };
  return { [serversKey(client)]: { [e.name]: hostEntry(client, e) } };
}

/** Quotes a word for a POSIX shell (or cmd.exe on Windows) only when it needs it. */
function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (process.platform === 'win32') return `"${word.replace(/"/g, '""')}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `claude mcp add cairn -- <command> <args...>`, with `-e NAME=value` per env variable (only ACP entries have any). */
export function claudeAddCommand(e: ServerEntry): string {
  const envFlags = e.env.flatMap((v) => ['-e', `${v.name}=${v.value}`]);
  return ['claude', 'mcp', 'add', ...envFlags, e.name, '--', e.command, ...e.args].map(shellWord).join(' ');
}

/** How each project host names the open folder in a server's args (Claude Code starts servers in it and sends it as a root). */
export const FOLDER_VARS: Partial<Record<Client, string>> = { vscode: '${workspaceFolder}', cursor: '${workspaceFolder}' };

/** The project config file of a host, relative to the repository root. */
export const PROJECT_FILES: Record<AgentHost, string> = {
  'claude-code': '.mcp.json',
  vscode: join('.vscode', 'mcp.json'),
  cursor: join('.cursor', 'mcp.json'),
};

/** Where each host's configuration goes, for the hint printed next to the JSON. */
export function whereToPaste(client: Client): string {
  switch (client) {
    case 'claude-code':
      return '.mcp.json at the repository root';
    case 'claude-desktop':
      return process.platform === 'win32'
        ? '%APPDATA%\\Claude\\claude_desktop_config.json (merge into "mcpServers"; restart Claude Desktop)'
        : '~/Library/Application Support/Claude/claude_desktop_config.json on macOS (merge into "mcpServers"; restart Claude Desktop)';
    case 'vscode':
      return '.vscode/mcp.json in the workspace (merge into "servers")';
    case 'cursor':
      return '.cursor/mcp.json in the project, or ~/.cursor/mcp.json for all projects (merge into "mcpServers")';
    case 'acp':
      return 'an item of "mcpServers" in the ACP session/new (newSession) request';
  }
}

/** created: a new file; added: the entry joined an existing file; updated: the entry changed; unchanged: nothing written. */
export type WriteStatus = 'created' | 'added' | 'updated' | 'unchanged';

export interface PreparedWrite {
  file: string;
  /** The parsed file, or undefined when it does not exist (or is empty). */
  existing: Record<string, unknown> | undefined;
  text: string | undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Line and column of an offset, for a parse error a person can find. */
function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/**
 * Reads a host's project config file and refuses anything it could not merge into without loss
 * (invalid JSON, a non-object), before anything else is changed. Comments and trailing commas
 * are JSONC, which VS Code allows in .vscode/mcp.json: they are read, and kept when the file is written.
 */
export function prepareProjectConfig(host: AgentHost, cwd: string, entryHint: () => Record<string, unknown>): PreparedWrite {
  const file = join(cwd, PROJECT_FILES[host]);
  if (!existsSync(file)) return { file, existing: undefined, text: undefined };
  const text = readFileSync(file, 'utf8');
  if (!text.trim()) return { file, existing: undefined, text };
  const refuse = (why: string): CairnError =>
    new CairnError('VALIDATION_ERROR', `${file} ${why}, so Cairn left it untouched (and created nothing). Fix the file, or add the entry by hand.`, {
      suggestions: [`add to ${PROJECT_FILES[host]}: ${JSON.stringify(entryHint())}`, `cairn mcp-config --client ${host} --project .`],
      details: { file },
    });
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) throw refuse(`is not valid JSON (${printParseErrorCode(errors[0]!.error)} at ${lineCol(text, errors[0]!.offset)})`);
  if (!isObject(parsed)) throw refuse('does not hold a JSON object');
  const key = serversKey(host);
  if (parsed[key] !== undefined && !isObject(parsed[key])) throw refuse(`has a "${key}" that is not an object`);
  return { file, existing: parsed, text };
}

/** The indentation the file already uses (two spaces for a new one). */
function indentOf(text: string | undefined): string {
  const m = text ? /^([ \t]+)\S/m.exec(text) : null;
  return m ? m[1]! : '  ';
}

/**
 * Puts the entry into the prepared file, editing only that entry's text: other servers, other
 * top-level keys, comments and the file's own formatting are kept, the folder is created if needed,
 * and a file that already has this exact entry is not written at all.
 */
export function writeProjectConfig(host: AgentHost, prepared: PreparedWrite, e: ServerEntry): WriteStatus {
  const key = serversKey(host);
  const value = hostEntry(host, e);
  const servers = (prepared.existing?.[key] as Record<string, unknown> | undefined) ?? {};
  if (JSON.stringify(servers[e.name]) === JSON.stringify(value)) return 'unchanged';
  const status: WriteStatus = prepared.text === undefined ? 'created' : servers[e.name] === undefined ? 'added' : 'updated';
  mkdirSync(dirname(prepared.file), { recursive: true });
  if (!prepared.existing) {
    writeFileSync(prepared.file, `${JSON.stringify({ [key]: { [e.name]: value } }, null, 2)}\n`);
    return status;
  }
  const text = prepared.text!;
  const indent = indentOf(text);
  // A new entry goes first: jsonc-parser lays out the lines its edit touches, and first, those are the
  // "servers" line and the entry's own, so the entries after it keep their layout and trailing comments.
  const edits = modify(text, [key, e.name], value, {
    getInsertionIndex: () => 0,
    formattingOptions: { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' },
  });
  writeFileSync(prepared.file, applyEdits(text, edits));
  return status;
}
