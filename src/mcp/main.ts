/**
 * `cairn mcp`: serves the MCP server over stdio until stdin closes or SIGINT/SIGTERM, then waits
 * for tool calls in flight so no write is lost. stdout carries only JSON-RPC; logs go to stderr.
 */
import { resolve } from 'node:path';
import { openForeignSqlite } from '../foreign-sqlite.js';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { followChanges, type ChangeFeed } from '../core/services/change-feed.js';
import { LeaseWatch } from '../core/services/lease-expiry.js';
import { truthy } from '../core/rules/flag-value.js';
import { systemClock, type Store } from '../core/ports.js';
import type { Toolset } from '../ops/index.js';
import { isNativeProfile, type Profile } from '../profiles/profile.js';
import { registerWorkspace, userRegistry } from '../registry/user-registry.js';
import { openRemote, remoteOnlyStore, remoteSettings } from '../remote/remote-session.js';
import { failedStore, lazyStore } from './lazy-store.js';
import type { EarlyStart } from './early-initialize.js';
import { GuardedStdioTransport, MAX_LINE_BYTES } from './stdio-guard.js';
import type { SavedToolEntries } from './tool-list.js';
import { buildMcpServer, stdioSink } from './server.js';
import { forwardChanges } from './subscriptions.js';
import { WorkspaceChoice } from './workspace-choice.js';
import { parseToolsets } from './toolsets.js';

export interface McpStdioOptions {
  db?: string;
  project?: string;
  /** "tasks,projects", "all", …; default CAIRN_TOOLSETS, then tasks,projects. */
  toolsets?: string;
  readOnly?: boolean | string;
  actor?: string;
  /** A seed's surface (castle, tx, devplanner, …); default CAIRN_PROFILE, then the native tools. */
  profile?: string;
  /** Run every tool on this remote `cairn serve` (default CAIRN_URL; token CAIRN_TOKEN), with a local outbox for writes while it is away. */
  remote?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** stdin already read, and an `initialize` already answered, by the entry before this module loaded (early-initialize.ts). */
  early?: EarlyStart;
  /**
   * Called once, on a later turn of the event loop, after the first tool call has been answered: bin/cairn.js
   * then makes its code cache, which by then holds what serving tools/list and a call compiled.
   */
  onFirstCall?: () => void;
  /** tools/list entries saved by an earlier run of this build (bin/cairn.js; tool-list.ts). */
  toolEntries?: SavedToolEntries;
}

/** The variables a profile reads, as the server was started with (relative project paths resolved against its directory). */
function profileEnv(profile: Profile, env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (profile.workspaceEnv) out[profile.workspaceEnv] = env[profile.workspaceEnv];
  if (profile.projectPathEnv && env[profile.projectPathEnv]) out[profile.projectPathEnv] = resolve(env[profile.projectPathEnv]!);
  return out;
}

function log(level: string, message: string): void {
  process.stderr.write(`[cairn mcp] ${level}: ${message}\n`);
}

/** Why a call is slow when another process is writing: said in the log at most once a minute. */
let lastLockNotice = 0;
function lockWaitNotice(): void {
  const now = Date.now();
  if (now - lastLockNotice < 60_000) return;
  lastLockNotice = now;
  log('info', "a write is waiting for the workspace's write lock, which another process holds; it answers BUSY if the lock stays held");
}

/** The opened store, or one answering every call with why it could not be opened (NOT_A_WORKSPACE, CORRUPT…): never a server waiting forever. */
function openOrFailed(openStore: (path: string) => Store, path: string): Store {
  try {
    return openStore(path);
  } catch (err) {
    log('error', `cannot open the workspace ${path}: ${err instanceof Error ? err.message : String(err)}`);
    return failedStore(err, path);
  }
}

/** Runs the stdio server; resolves after a clean shutdown. */
export async function runMcpStdio(opts: McpStdioOptions = {}): Promise<void> {
  // Anything a dependency prints must not corrupt the protocol stream.
  console.log = console.info = console.debug = (...a: unknown[]) => log('info', a.map(String).join(' '));
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  // A bad profile or toolset throws here, before anything is served: the host sees the message and the exit.
  // The profiles (their tools' zod schemas, about 7 ms of start-up) load only when one is named.
  const profileName = opts.profile ?? env.CAIRN_PROFILE;
  const profiles = isNativeProfile(profileName) ? undefined : await import('../profiles/index.js');
  const profile = profiles?.findProfile(profileName);
  const profileToolsets = profile ? profiles!.parseProfileToolsets(profile, opts.toolsets ?? env.CAIRN_TOOLSETS) : [];
  const toolsets: Toolset[] = profile ? [] : parseToolsets(opts.toolsets ?? env.CAIRN_TOOLSETS);
  const readOnly = truthy(opts.readOnly) || truthy(env.CAIRN_READ_ONLY);
  // A host that does not expand a variable in its args (`${workspaceFolder}`) passes it as text:
  // the workspace is then found as if no --db were given, from the folder and the client's roots.
  const db = opts.db !== undefined && /\$\{[^}]*\}/.test(opts.db) ? undefined : opts.db;
  if (opts.db !== undefined && db === undefined) log('warning', `--db ${opts.db}: the host did not expand its variable; looking for .cairn/ from ${cwd} and the client's roots instead`);
  // The profile's host names the agent's project directory (CASTLE_PROJECT_PATH): it scopes like a working directory.
  const projectDir = profile?.projectPathEnv ? env[profile.projectPathEnv] : undefined;
  // --remote / CAIRN_URL: every op goes to that server; writes wait in the outbox while it is away.
  const remote = remoteSettings(opts.remote, env, opts.actor ?? env.CAIRN_ACTOR ?? (env.CAIRN_TOKEN ? undefined : 'agent'), db);
  const runner = remote ? openRemote(remote, { cwd, env, log: (m) => log('info', m) }) : undefined;
  if (runner) {
    log('info', `serving remote ${runner.url} (outbox ${runner.outbox.dir})`);
    runner.startAutoFlush();
  }
  // Loaded after serving starts (a separate chunk when bundled): initialize does not need the database.
  // Started outside any workspace ($HOME, /), the client's MCP roots decide it (workspace-choice.ts).
  const choice = new WorkspaceChoice(cwd, (m) => log('info', m));
  const surface = profile ? `profile ${profile.name}${profileToolsets.length ? ` + ${profileToolsets.join(',')}` : ''}` : `toolsets ${toolsets.join(',')}`;
  if (runner) choice.use(remoteOnlyStore(runner.url));
  else {
    void import('../workspace.js').then(
      ({ findWorkspace, openStore, redact }) => {
        const location = findWorkspace({ db, cwd, env, ...(profile?.workspaceEnv ? { profileEnv: profile.workspaceEnv } : {}), ...(profile?.linkKind ? { profileLink: profile.linkKind } : {}) });
        const linked = location.link ? ` (linked to ${location.link.path})` : '';
        log(
          'info',
          `${location.source === 'default' ? `no workspace in ${cwd} or above; waiting for the client's roots` : `serving ${redact(location.path)}${linked}`} · ${surface}${readOnly ? ' · read-only' : ''}`,
        );
        // A server lives long: linked folders are watched, not scanned on every call.
        const open = (path: string) =>
          openStore(path, { watch: true, onWarning: (m) => log('warning', m), onLockWait: lockWaitNotice, ...(location.link && path === location.path ? { link: location.link } : {}) });
        if (location.source !== 'default') return choice.use(openOrFailed(open, location.path));
        choice.fromRoots((root) => {
          const found = findWorkspace({ cwd: root, env: {} });
          return found.source === 'ancestor' ? { store: openOrFailed(open, found.path), path: found.path } : undefined;
        });
      },
      (err: unknown) => {
        log('error', `cannot load the workspace module: ${String(err)}`);
        choice.abandon();
      },
    );
  }
  const store: Store = choice.store;
  // Another repository's workspace, for handoffs to it; opened (and closed) per call.
  const openWorkspace = (db: string): Store =>
    lazyStore(
      import('../workspace.js').then((m) => m.openStore(db)),
      db,
    );
  const repositories = runner ? undefined : userRegistry(openWorkspace, env);
  // Registered once it is open, off the start-up path: a dependency id names this repository from any other.
  if (repositories) {
    void choice.ready.then(
      (s) => {
        if (s) setTimeout(() => void registerWorkspace(s, openWorkspace, { env, onWarning: (m) => log('warning', m) }), 250).unref();
      },
      () => undefined,
    );
  }
  const feed: Promise<ChangeFeed | undefined> = runner
    ? Promise.resolve(undefined)
    : choice.ready.then((s) => (s ? followChanges(s, { intervalMs: 100, onError: (err) => log('warning', `change feed: ${String(err)}`) }) : undefined));
  feed.catch((err: unknown) => log('error', `cannot open the workspace: ${String(err)}`));
  // Lease ends become claim_expired events on time, here as in cairn serve (a remote or read-only server has none to announce).
  const leases: Promise<LeaseWatch | undefined> =
    runner || readOnly
      ? Promise.resolve(undefined)
      : choice.ready.then((s) =>
          s ? new LeaseWatch({ store: s, clock: systemClock, actor: 'cairn' }, { firstDelayMs: 250, onError: (err) => log('warning', `lease watch: ${String(err)}`) }).start() : undefined,
        );
  leases.catch(() => undefined);

  let inflight = 0;
  let drained: (() => void) | undefined;
  let firstCall = opts.onFirstCall;
  const track = async <T>(work: () => Promise<T>): Promise<T> => {
    inflight++;
    try {
      return await work();
    } finally {
      if (--inflight === 0) drained?.();
      // setImmediate: the answer is written first (the SDK sends it once this promise settles).
      if (firstCall) setImmediate(firstCall);
      firstCall = undefined;
    }
  };

  // Oversized, malformed or batched lines are answered by the guard; if the transport closes anyway, leave (stdio-guard.ts).
  let transportClosed = () => undefined as void;
  const transport = new GuardedStdioTransport(() => transportClosed(), process.stdin, process.stdout, MAX_LINE_BYTES, opts.early);
  const handle = serveStdio(
    (ctx) => {
      const server = buildMcpServer(
        {
          store,
          actor: opts.actor ?? env.CAIRN_ACTOR ?? 'agent',
          toolsets,
          readOnly,
          feedReady: feed,
          cwd: projectDir ? resolve(cwd, projectDir) : cwd,
          track,
          log,
          onRoots: (paths) => choice.roots(paths),
          services: { openWorkspace, openForeignSqlite, ...(runner ? { remote: runner } : {}), ...(repositories ? { repositories } : {}) },
          ...(profile ? { profile: { profile, toolsets: profileToolsets, env: profileEnv(profile, env) } } : {}),
          ...(opts.project ? { defaultProject: opts.project } : {}),
          ...(env.CAIRN_PROJECT ? { envProject: env.CAIRN_PROJECT } : {}),
          ...(opts.toolEntries ? { toolEntries: opts.toolEntries } : {}),
        },
        ctx,
      );
      void feed.then(
        (f) => f && forwardChanges(f, stdioSink(server, ctx.era)),
        () => undefined,
      );
      return server;
    },
    { onerror: (err) => log('warning', err.message), transport },
  );
  await new Promise<void>((resolve) => {
    let closing = false;
    const shutdown = async (why: string) => {
      if (closing) return;
      closing = true;
      log('info', `shutting down (${why})`);
      // Safety net: an unref'd timer fires only if something else keeps the process alive.
      setTimeout(() => process.exit(0), 15_000).unref();
      // Requests already read but not yet dispatched start within a few ticks: wait until none is
      // in flight twice in a row, so every write the server received is committed before closing.
      const deadline = Date.now() + 10_000;
      for (let quiet = 0; quiet < 2 && Date.now() < deadline; ) {
        if (inflight > 0) {
          quiet = 0;
          await Promise.race([new Promise<void>((r) => (drained = r)), new Promise((r) => setTimeout(r, 1000))]);
        } else {
          quiet++;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      choice.abandon();
      if (runner) await runner.close();
      else await (await feed.catch(() => undefined))?.close();
      await (await leases.catch(() => undefined))?.stop();
      await handle.close().catch(() => undefined);
      await store.close().catch(() => undefined);
      resolve();
    };
    transportClosed = () => void shutdown('transport closed');
    process.stdin.once('end', () => void shutdown('stdin closed'));
    process.stdin.once('close', () => void shutdown('stdin closed'));
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('unhandledRejection', (err) => log('error', `unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  });
  // The signal handlers replaced Node's default exit; leave once the caller has had a tick to finish.
  setTimeout(() => process.exit(0), 200).unref();
}
