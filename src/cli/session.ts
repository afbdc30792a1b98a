/** Opens what a command needs: the workspace (refusing writes when there is none), the actor, and the default project. */
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { CairnError } from '../core/errors.js';
import { openForeignSqlite } from '../foreign-sqlite.js';
import { resolveDefaultProject } from '../ops/default-project.js';
import { systemClock } from '../core/ports.js';
import type { OpContext } from '../ops/op.js';
import { loadOp } from '../ops/op-modules.js';
import { runOp } from '../ops/run-op.js';
import { registerWorkspace, userRegistry } from '../registry/user-registry.js';
import { openRemote, remoteOnlyStore, remoteSettings } from '../remote/remote-session.js';
import { findWorkspace, isPostgresUrl, openStore, redact, type WorkspaceLocation } from '../workspace.js';

/** Options every command accepts (declared on the program). */
export interface GlobalOptions {
  db?: string | undefined;
  /** A remote `cairn serve` to run every op on (else CAIRN_URL). */
  remote?: string | undefined;
  as?: string | undefined;
  json?: boolean | undefined;
}

export interface Session {
  ctx: OpContext;
  workspace: WorkspaceLocation;
  close(): Promise<void>;
  /** Registers a local workspace in this user's repository registry (after a write: it exists then). */
  register?(): Promise<void>;
}

/** `--as`, then CAIRN_ACTOR, then the OS user name. */
export function resolveActor(g: GlobalOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (g.as?.trim()) return g.as.trim();
  if (env.CAIRN_ACTOR?.trim()) return env.CAIRN_ACTOR.trim();
  try {
    return userInfo().username || 'user';
  } catch {
    return 'user'; // some containers have no passwd entry for the uid
  }
}

export function locateWorkspace(g: GlobalOptions): WorkspaceLocation {
  return findWorkspace({ db: g.db, cwd: process.cwd(), env: process.env });
}

export function noWorkspaceError(ws: WorkspaceLocation): CairnError {
  return new CairnError('NO_WORKSPACE', `No Cairn workspace here: no .cairn/ folder in ${process.cwd()} or any parent. Nothing was changed.`, {
    suggestions: ['cairn init  (creates .cairn/ in this folder)', '--db PATH or CAIRN_DB=PATH to use a workspace file elsewhere'],
    details: { wouldCreate: redact(ws.path) },
  });
}

/** Reads against a missing workspace answer empty; say so on stderr so an empty list is not mistaken for "no tasks". */
function hintMissing(ws: WorkspaceLocation): void {
  const why =
    ws.source === 'default'
      ? 'no workspace found (no .cairn/ here or in a parent folder); run `cairn init` to create one'
      : `workspace ${redact(ws.path)} does not exist yet; the first write creates it`;
  process.stderr.write(`cairn: ${why}. Showing empty results.\n`);
}

export function openSession(g: GlobalOptions, opts: { write: boolean }): Session {
  const workspace = locateWorkspace(g);
  // The actor goes along when named, or when there is no token (whose name would be the actor).
  const remote = remoteSettings(g.remote, process.env, g.as?.trim() || process.env.CAIRN_ACTOR?.trim() || (process.env.CAIRN_TOKEN ? undefined : resolveActor(g)), g.db);
  if (remote) {
    const runner = openRemote(remote, { cwd: process.cwd(), env: process.env });
    const ctx: OpContext = { store: remoteOnlyStore(remote.url), clock: systemClock, actor: resolveActor(g), remote: runner };
    return { ctx, workspace: { path: remote.url, source: 'flag' }, close: () => runner.close() };
  }
  if (opts.write && workspace.source === 'default') throw noWorkspaceError(workspace);
  if (!opts.write && !isPostgresUrl(workspace.path) && !existsSync(workspace.path)) hintMissing(workspace);
  const store = openStore(workspace.path);
  const repositories = userRegistry(openStore);
  const ctx: OpContext = { store, clock: systemClock, actor: resolveActor(g), openWorkspace: openStore, openForeignSqlite, cwd: process.cwd(), ...(repositories ? { repositories } : {}) };
  return { ctx, workspace, close: () => store.close(), register: () => registerWorkspace(store, openStore, { onWarning: (m) => process.stderr.write(`cairn: ${m}\n`) }) };
}

/** CAIRN_PROJECT, else the project whose root holds the working directory (ops/default-project.ts decides, as for MCP), else none. */
export function defaultProject(ctx: OpContext): Promise<string | undefined> {
  return resolveDefaultProject(ctx, { env: process.env.CAIRN_PROJECT, cwd: process.cwd() });
}

export async function noProjectError(ctx: OpContext): Promise<CairnError> {
  const { projects } = (await runOp((await loadOp('list_projects'))!, ctx, {})) as { projects: Array<{ key: string }> };
  const keys = projects.map((p) => p.key);
  return new CairnError(
    'VALIDATION_ERROR',
    `No project given, and none found for ${process.cwd()}. ${keys.length ? `Projects: ${keys.join(', ')}.` : 'There are no projects yet.'} Nothing was changed.`,
    {
      suggestions: keys.length
        ? [`--project ${keys[0]}`, 'export CAIRN_PROJECT=KEY', 'cairn project update KEY --root .  (makes KEY the default inside this folder)']
        : ['cairn project create KEY "Name" --root .', 'cairn init --key KEY --name "Name"'],
    },
  );
}
