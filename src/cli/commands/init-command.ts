/** `cairn init`: creates the workspace (.cairn/cairn.db in the working directory) and optionally a first project rooted there. */
import type { Command } from 'commander';
import { existsSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CairnError } from '../../core/errors.js';
import type { Project } from '../../core/model/project.js';
import { systemClock } from '../../core/ports.js';
import { findOp, runOp, type OpContext } from '../../ops/index.js';
import { registerWorkspace } from '../../registry/user-registry.js';
import { DB_FILE, findWorkspace, isPostgresUrl, openStore, redact, WORKSPACE_DIR } from '../../workspace.js';
import { colorEnabled, painter } from '../render/color.js';
import { visibleStrings } from '../render/visible-text.js';
import { defaultProject, resolveActor, type GlobalOptions } from '../session.js';
import {
  AGENT_HOSTS,
  clientConfig,
  FOLDER_VARS,
  parseClient,
  parseProfile,
  PASSWORD_NOTE,
  prepareProjectConfig,
  serverEntry,
  writeProjectConfig,
  type AgentHost,
  type WriteStatus,
} from './host-config.js';
import { stdoutIsTTY, writeOut } from '../stdout.js';
import { writeGitignore } from './workspace-gitignore.js';

/** `--json` output of init (no op behind it): where the workspace is, whether it was new, the project created. */
export interface InitResult {
  workspace: string;
  created: boolean;
  project: Project | null;
  /** With --key: false when the project was there already (init run again is a no-op). */
  projectCreated?: boolean;
  /** Without --key: the project is the one this folder belongs to (its root holds it). */
  projectHere?: boolean;
  /** The .cairn/.gitignore written by this run (null when it was there already or the folder is not .cairn). */
  gitignore?: string | null;
  /** Only with --agent: the host config file written (or found already configured). */
  agent?: { host: AgentHost; file: string; status: WriteStatus; name: string; command: string };
}

interface InitOptions extends GlobalOptions {
  key?: string;
  name?: string;
  template?: string;
  agent?: string;
  profile?: string;
  absolute?: boolean;
}

/** Here, unless --db or CAIRN_DB names the file; an ancestor's workspace is deliberately not reused. */
function targetPath(o: InitOptions): string {
  const ws = findWorkspace({ db: o.db, cwd: process.cwd(), env: process.env });
  return ws.source === 'flag' || ws.source === 'env' ? ws.path : join(process.cwd(), WORKSPACE_DIR, DB_FILE);
}

/**
 * The entry written for --agent. The file is committed, so by default it names nothing of this
 * machine: `cairn` or `npx -y cairn-tasks`, and the workspace as the host's folder variable (or found
 * from the folder and roots). A workspace elsewhere than ./.cairn is named as given; --absolute pins
 * node, bin/cairn.js and the database by path, for a host started without the shell's PATH.
 */
function agentEntry(o: InitOptions, host: AgentHost, db: string) {
  const here = join(process.cwd(), WORKSPACE_DIR, DB_FILE);
  const isHere = !isPostgresUrl(db) && (db === here || (existsSync(here) && existsSync(db) && realpathSync(db) === realpathSync(here)));
  if (o.absolute) return serverEntry({ profile: parseProfile(o.profile), db, dbVia: 'args' });
  const folderVar = FOLDER_VARS[host];
  return serverEntry({ profile: parseProfile(o.profile), ...(isHere ? {} : { db }), dbVia: 'args', launch: 'portable', ...(folderVar ? { folderVar } : {}) });
}

async function init(o: InitOptions): Promise<InitResult> {
  if ((o.name || o.template) && !o.key) {
    throw new CairnError('VALIDATION_ERROR', '--name and --template describe the first project and need --key. Nothing was changed.', { suggestions: ['cairn init --key API --name "API server"'] });
  }
  if (o.profile !== undefined && o.agent === undefined) {
    throw new CairnError('VALIDATION_ERROR', '--profile chooses the tools of the --agent entry and needs --agent. Nothing was changed.', {
      suggestions: ['cairn init --agent claude-code --profile castle'],
    });
  }
  if (o.absolute && o.agent === undefined) {
    throw new CairnError('VALIDATION_ERROR', '--absolute chooses how the --agent entry starts Cairn and needs --agent. Nothing was changed.', {
      suggestions: ['cairn init --agent claude-code --absolute'],
    });
  }
  const path = targetPath(o);
  // Validate --agent, --profile and the host's existing config file before anything is created.
  if (o.agent === 'claude-desktop' || o.agent === 'acp') {
    throw new CairnError('VALIDATION_ERROR', `--agent ${o.agent}: that host has no project config file for init to write. Valid --agent hosts: ${AGENT_HOSTS.join(', ')}. Nothing was changed.`, {
      suggestions: [`cairn mcp-config --client ${o.agent} --project .  (prints the configuration to paste)`],
    });
  }
  const host = o.agent === undefined ? undefined : (parseClient(o.agent, AGENT_HOSTS, '--agent', 'cairn init') as AgentHost);
  parseProfile(o.profile);
  const prepared = host ? prepareProjectConfig(host, process.cwd(), () => clientConfig(host, agentEntry(o, host, path))) : undefined;
  const result = await initWorkspace(o, path);
  if (host && prepared) {
    const entry = agentEntry(o, host, isPostgresUrl(path) ? path : realpathSync(path));
    result.agent = { host, file: prepared.file, status: writeProjectConfig(host, prepared, entry), name: entry.name, command: [entry.command, ...entry.args].join(' ') };
    if (entry.passwordLeftOut) process.stderr.write(`cairn: ${PASSWORD_NOTE}\n`);
  }
  // A PostgreSQL URL is shown without its password, on the terminal and in --json.
  return { ...result, workspace: redact(result.workspace) };
}

async function initWorkspace(o: InitOptions, path: string): Promise<InitResult> {
  const created = !existsSync(path);
  const store = openStore(path);
  const ctx: OpContext = { store, clock: systemClock, actor: resolveActor(o) };
  try {
    await store.write(async () => undefined); // an empty write creates and migrates the file
    const gitignore = writeGitignore(path);
    const register = () => registerWorkspace(store, openStore, { onWarning: (m) => process.stderr.write(`cairn: ${m}\n`) });
    if (!o.key) {
      await register();
      // Run again where a project is rooted: that project is what commands here work on, so say so (not "create one").
      const key = created ? undefined : await defaultProject(ctx).catch(() => undefined);
      const here = key
        ? await runOp(findOp('get_project')!, ctx, { key }).then(
            (r) => (r as { project: Project }).project,
            () => undefined,
          )
        : undefined;
      return here ? { workspace: path, created, project: here, projectCreated: false, projectHere: true, gitignore } : { workspace: path, created, project: null, gitignore };
    }
    // Run again with the same key: the project is reported as it is, nothing changes.
    const existing = await runOp(findOp('get_project')!, ctx, { key: o.key }).then(
      (r) => (r as { project: Project }).project,
      () => undefined,
    );
    if (existing && existing.key === o.key.trim().toUpperCase()) return { workspace: path, created, project: existing, projectCreated: false, gitignore };
    const input = { key: o.key, name: o.name ?? o.key, root: process.cwd(), ...(o.template ? { template: o.template } : {}) };
    const { project } = (await runOp(findOp('create_project')!, ctx, input)) as { project: Project };
    await register();
    return { workspace: path, created, project, projectCreated: true, gitignore };
  } finally {
    await store.close();
  }
}

function human(r: InitResult): string {
  const paint = painter(colorEnabled({ isTTY: stdoutIsTTY() }));
  const lines = [r.created ? `${paint('green', 'Initialized')} Cairn workspace ${r.workspace}` : `Cairn workspace already exists: ${r.workspace}`];
  if (r.gitignore) lines.push(`${paint('green', 'Wrote')} ${relative(process.cwd(), r.gitignore) || r.gitignore} (keeps the database out of git)`);
  if (r.project && r.projectHere) lines.push(`Project ${paint('bold', r.project.key)} (${r.project.name}) is rooted at ${r.project.root ?? '-'}: commands here work on it`);
  else if (r.project && r.projectCreated === false) lines.push(`Project ${paint('bold', r.project.key)} already exists (${r.project.name}), root ${r.project.root ?? '-'}: nothing changed`);
  else if (r.project) lines.push(`${paint('green', 'Created')} project ${paint('bold', r.project.key)} (${r.project.name}), root ${r.project.root}`);
  if (r.agent) {
    const file = relative(process.cwd(), r.agent.file) || r.agent.file;
    const verb = { created: 'Created', added: `Added ${r.agent.name} to`, updated: `Updated ${r.agent.name} in`, unchanged: '' }[r.agent.status];
    const what = `"${r.agent.name}": ${r.agent.command}`;
    lines.push(r.agent.status === 'unchanged' ? `${r.agent.host} already configured: ${file} (${what})` : `${paint('green', verb)} ${file} (${r.agent.host}, ${what})`);
  }
  lines.push(paint('dim', r.project ? `Next: cairn add "First task"` : 'Next: cairn project create KEY "Name" --root .'));
  return lines.join('\n');
}

export function addInitCommand(program: Command): void {
  program
    .command('init')
    .description('Create a workspace (.cairn/) here, optionally with a first project rooted here')
    .option('--key <KEY>', 'key of a first project (2–10 letters), rooted at this folder')
    .option('--name <name>', 'name of that project (default: the key)')
    .option('--template <name>', 'workflow template of that project: default|devplanner')
    .option('--agent <host>', `also add cairn mcp to that host's project config here: ${AGENT_HOSTS.join('|')} (.mcp.json, .vscode/mcp.json, .cursor/mcp.json)`)
    .option('--profile <name>', 'with --agent: serve a seed profile: castle|tx|devplanner|ade (default: native tools)')
    .option('--absolute', "with --agent: name node, bin/cairn.js and the database by absolute path (for a host started without your PATH; the file is then this machine's only)")
    .addHelpText('after', '\nExamples:\n  cairn init\n  cairn init --key API --name "API server"\n  cairn init --key PLAN --template devplanner\n  cairn init --agent claude-code')
    .action(async (_opts: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<InitOptions>();
      const result = await init(o);
      writeOut(`${o.json ? JSON.stringify(result, null, 2) : human(visibleStrings(result))}\n`);
    });
}
