/**
 * Opening a remote workspace: `--remote URL` or CAIRN_URL (with CAIRN_TOKEN) puts every op of a
 * CLI command or an MCP server on that `cairn serve`. There is no local database then: the context's
 * store only explains that, should anything reach for it; ops go through the runner.
 */
import { CairnError } from '../core/errors.js';
import type { Store } from '../core/ports.js';
import { workspaceRootOf } from '../core/places/repo-paths.js';
import { Outbox, outboxDir } from './outbox.js';
import { HttpRemoteRunner } from './remote-runner.js';

export interface RemoteSettings {
  url: string;
  token?: string | undefined;
  actor?: string | undefined;
}

/**
 * The remote named by the flag, else CAIRN_URL; undefined for local work. An explicit --db means a
 * local workspace and wins over CAIRN_URL; beside an explicit --remote it is a conflict, refused.
 */
export function remoteSettings(flag: string | undefined, env: NodeJS.ProcessEnv, actor: string | undefined, db?: string): RemoteSettings | undefined {
  if (db !== undefined && flag?.trim()) {
    throw new CairnError('VALIDATION_ERROR', `--remote ${flag.trim()} and --db ${db} name two different workspaces (a server and a local database); give one. Nothing was done.`, {
      suggestions: [`Drop --db to work on ${flag.trim()}`, 'Drop --remote to work on the local database'],
    });
  }
  if (db !== undefined) return undefined;
  const url = (flag ?? env.CAIRN_URL)?.trim();
  if (!url) return undefined;
  if (!/^https?:\/\//i.test(url)) {
    throw new CairnError('VALIDATION_ERROR', `The remote "${url}" is not an http(s) URL. Nothing was changed.`, {
      suggestions: ['--remote http://127.0.0.1:7420', 'CAIRN_URL=https://cairn.example.com'],
    });
  }
  return { url, token: env.CAIRN_TOKEN?.trim() || undefined, actor };
}

/** A runner for the remote, with the outbox of the nearest `.cairn/` (or of the working directory). */
export function openRemote(s: RemoteSettings, opts: { cwd: string; env: NodeJS.ProcessEnv; log?: (m: string) => void }): HttpRemoteRunner {
  const outbox = new Outbox(outboxDir(opts.cwd, opts.env, workspaceRootOf(opts.cwd)));
  return new HttpRemoteRunner({ url: s.url, token: s.token, actor: s.actor, outbox, ...(opts.log ? { log: opts.log } : {}) });
}

/** The context's store in remote mode: no local database; anything that reaches for one is told why. */
export function remoteOnlyStore(url: string): Store {
  const refuse = async (): Promise<never> => {
    throw new CairnError('FORBIDDEN', `This session works against the Cairn server at ${url}; there is no local database to read or write here.`, {
      suggestions: ['Unset CAIRN_URL (or drop --remote) to work on the local .cairn/ workspace'],
    });
  };
  return { location: url, read: refuse, write: refuse, changeToken: async () => '0', projectsToken: async () => '0', close: async () => undefined };
}
