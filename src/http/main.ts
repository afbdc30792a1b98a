/**
 * `cairn serve`: binds the HTTP app (loopback unless tokens exist), follows signals, and shuts down
 * gracefully: stop accepting, end live streams, let in-flight requests finish, then close the store.
 */
// The profiles' workflow templates, registered before any op runs (create_project and import name them).
import '../profiles/templates.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { CairnError } from '../core/errors.js';
import { systemClock, type Store } from '../core/ports.js';
import { TokenCache } from '../ops/token-check.js';
import { registerWorkspace } from '../registry/user-registry.js';
import { findWorkspace, openStore } from '../workspace.js';
import { createApp, VERSION, type AppOptions, type CairnApp } from './app.js';
import { tuneHeap } from './heap-upkeep.js';
import { isLoopbackHost } from './host-guard.js';
import { hostname } from 'node:os';
import { createLogger, parseLogLevel, type LogLevel } from './log.js';

export { parseLogLevel } from './log.js';

export { createApp, VERSION, type AppOptions, type CairnApp } from './app.js';

export interface StartOptions extends AppOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port (tests). Default 7420. */
  port?: number;
  /** Longest wait for in-flight requests at shutdown before connections are cut (default 10 s). */
  shutdownTimeoutMs?: number;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  app: CairnApp;
  server: Server;
  /** Graceful: refuses new connections, ends streams, waits for in-flight requests. Idempotent. */
  close(): Promise<void>;
}

async function liveTokenCount(store: Store): Promise<number> {
  return (await new TokenCache({ store, clock: systemClock, actor: 'http' }).get()).size;
}

/** Starts the server; the store stays owned by the caller. */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && (await liveTokenCount(opts.store)) === 0) {
    throw new CairnError('FORBIDDEN', `Refusing to listen on ${host}: it is reachable from other machines and the workspace has no API tokens, so anyone could read and change it.`, {
      suggestions: ['cairn token create --name NAME --scope write, then start again', 'Or serve on 127.0.0.1 (the default)'],
    });
  }
  const app = await createApp({ ...opts, host });
  const port = opts.port ?? 7420;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.app.fetch, hostname: host, port }, () => resolve(s as Server)) as Server;
    s.once('error', (err: NodeJS.ErrnoException) => {
      void app.close();
      if (err.code !== 'EADDRINUSE' && err.code !== 'EADDRNOTAVAIL' && err.code !== 'EACCES') return reject(err);
      const why = err.code === 'EADDRINUSE' ? `port ${port} is already in use` : err.code === 'EACCES' ? `port ${port} needs privileges` : `${host} is not an address of this machine`;
      reject(new CairnError('VALIDATION_ERROR', `Cannot listen on ${host}:${port}: ${why}.`, { suggestions: ['cairn serve --port 7421', 'cairn serve --port 0 (any free port)'], cause: err }));
    });
  });
  const addr = server.address() as AddressInfo;
  const urlHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${addr.port}`,
    host,
    port: addr.port,
    app,
    server,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const limit = opts.shutdownTimeoutMs ?? 10_000;
        await app.drain(limit); // tool calls and REST requests in flight finish first…
        await app.close(); // …then SSE and MCP streams end, which would otherwise hold close() open forever
        // Keep-alive sockets become idle as their last response ends; close them as they do.
        server.closeIdleConnections();
        const reaper = setInterval(() => server.closeIdleConnections(), 25);
        const timer = setTimeout(() => server.closeAllConnections(), limit);
        timer.unref();
        await closed;
        clearInterval(reaper);
        clearTimeout(timer);
      })()),
  };
}

export interface ServeOptions {
  host?: string;
  port?: number;
  db?: string;
  /** `--metrics`: serve /metrics (wins over CAIRN_METRICS). */
  metrics?: boolean;
  /** `--log-level` (wins over CAIRN_LOG_LEVEL); default info. */
  logLevel?: LogLevel;
  env?: NodeJS.ProcessEnv;
}

const list = (v: string | undefined): string[] =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

function retentionDays(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 3650) {
    throw new CairnError('VALIDATION_ERROR', `CAIRN_IDEMPOTENCY_DAYS must be a number of days above 0 (at most 3650), not "${text}". The server did not start.`, {
      suggestions: ['CAIRN_IDEMPOTENCY_DAYS=7  (the default)', 'CAIRN_IDEMPOTENCY_DAYS=0.5  (twelve hours)'],
    });
  }
  return n;
}

function onOff(name: string, text: string): boolean {
  if (/^(1|on|true|yes)$/i.test(text)) return true;
  if (/^(0|off|false|no)$/i.test(text)) return false;
  throw new CairnError('VALIDATION_ERROR', `${name} must be on or off (1 or 0), not "${text}". The server did not start.`, { suggestions: [`${name}=1`] });
}

/** Options from the environment: CAIRN_RATE_LIMIT (req/s per token, 0 = off), CAIRN_MAX_BODY (bytes), CAIRN_ALLOWED_HOSTS, CAIRN_MCP_LEGACY, CAIRN_IDEMPOTENCY_DAYS, CAIRN_METRICS, CAIRN_REPLICA_ID. */
export function envOptions(env: NodeJS.ProcessEnv): Partial<AppOptions> {
  const out: Partial<AppOptions> = {};
  if (env.CAIRN_RATE_LIMIT !== undefined) {
    const n = Number(env.CAIRN_RATE_LIMIT);
    out.rateLimit = n > 0 ? { perSecond: n, burst: n * 2 } : false;
  }
  if (env.CAIRN_MAX_BODY && Number(env.CAIRN_MAX_BODY) > 0) out.maxBodyBytes = Number(env.CAIRN_MAX_BODY);
  if (env.CAIRN_ALLOWED_HOSTS) out.allowedHosts = list(env.CAIRN_ALLOWED_HOSTS);
  if (env.CAIRN_MCP_LEGACY === 'stateless' || env.CAIRN_MCP_LEGACY === 'sessions') out.mcpLegacy = env.CAIRN_MCP_LEGACY;
  if (env.CAIRN_ACCESS_LOG === '0') out.accessLog = false;
  if (env.CAIRN_IDEMPOTENCY_DAYS !== undefined) out.keyRetentionDays = retentionDays(env.CAIRN_IDEMPOTENCY_DAYS);
  if (env.CAIRN_METRICS !== undefined && env.CAIRN_METRICS !== '') out.metrics = onOff('CAIRN_METRICS', env.CAIRN_METRICS);
  if (env.CAIRN_REPLICA_ID) out.replicaId = env.CAIRN_REPLICA_ID;
  return out;
}

/** The `cairn serve` command: runs until SIGINT/SIGTERM, then shuts down gracefully. */
export async function runServe(opts: ServeOptions = {}): Promise<void> {
  const env = opts.env ?? process.env;
  const options = envOptions(env);
  const level = opts.logLevel ?? (env.CAIRN_LOG_LEVEL ? parseLogLevel(env.CAIRN_LOG_LEVEL, 'CAIRN_LOG_LEVEL') : 'info');
  const log = createLogger({ replica: options.replicaId ?? `${hostname()}-${process.pid}`, level, pretty: process.stderr.isTTY === true });
  // A server outlives a failure nobody awaited (a database connection dropped mid-restart): logged, not fatal.
  process.on('unhandledRejection', (err) => log.error({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, 'unhandled rejection'));
  const location = findWorkspace({ db: opts.db, env });
  // A linked source's problems (a file it could not read) are warnings among the server's lines.
  const store = openStore(location.path, { watch: true, onWarning: (msg) => log.warn(msg) });
  const heap = tuneHeap();
  let running: RunningServer;
  try {
    // Opened before listening: a workspace this Cairn cannot open (a newer schema, a server that refuses
    // the connection) stops the start with its reason and a non-zero exit, instead of a server that
    // neither listens nor leaves. Opening migrates an older schema, which is logged.
    const before = await store.status?.();
    await store.read(async () => undefined);
    const after = await store.status?.();
    if (before && after && after.schemaVersion !== before.schemaVersion)
      log.info({ engine: after.engine, from: before.schemaVersion, to: after.schemaVersion }, before.schemaVersion === 0 ? 'schema created' : 'schema migrated');
    running = await startServer({
      store,
      host: opts.host ?? '127.0.0.1',
      port: opts.port ?? 7420,
      onMcpSessionEnded: heap.sessionEnded,
      logger: log,
      ...options,
      ...(opts.metrics ? { metrics: true } : {}),
    });
  } catch (err) {
    await store.close();
    throw err;
  }
  // This machine's other repositories find the served one by its package or remote (a local SQLite workspace only).
  setTimeout(() => void registerWorkspace(store, openStore, { env, onWarning: (m) => log.warn({ detail: m }, 'could not register the workspace') }), 250).unref();
  log.info(
    {
      url: running.url,
      board: `${running.url}/`,
      version: VERSION,
      db: store.location,
      mcp: `${running.url}/mcp`,
      api: `${running.url}/api/v1`,
      ...(location.source === 'default' ? { note: 'no database yet; the first write creates it' } : {}),
    },
    'cairn serve listening',
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.info({ signal }, 'shutting down');
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      void running
        .close()
        .then(() => store.close())
        .finally(resolve);
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}
