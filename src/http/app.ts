/**
 * The `cairn serve` application: guards (Host/Origin, bearer tokens, rate limit, body limit, access
 * log) in front of /api/v1 (REST generated from the ops, OpenAPI, SSE events), /mcp, /healthz and the web board at /.
 */
import { createRequire } from 'node:module';
import { openForeignSqlite } from '../foreign-sqlite.js';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context as HonoContext } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Context as CoreContext } from '../core/context.js';
import { systemClock, type Clock, type Store } from '../core/ports.js';
import { followChanges, type ChangeFeed } from '../core/services/change-feed.js';
import { LeaseWatch } from '../core/services/lease-expiry.js';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { accessLog, type AccessLogSink } from './access-log.js';
import { createLogger, setServerLog, withRequestId, type Logger } from './log.js';
import { mountHealth, mountMetrics } from './health.js';
import { Metrics } from './metrics.js';
import { authMiddleware, TokenCache, type AuthEnv } from './auth.js';
import { mountBoardAssets } from './board-assets.js';
import { mountEvents } from './events.js';
import { allowedHostnames, hostGuard, isLoopbackHost } from './host-guard.js';
import { httpError, json, onAppError } from './http-errors.js';
import { mountMcp, type McpEndpoint } from './mcp-endpoint.js';
import { buildOpenApi } from './openapi.js';
import { rateLimit, type RateLimitOptions } from './rate-limit.js';
import { RevocationWatch } from './revocation-watch.js';
import { API_PREFIX, mountRestRoutes } from './rest-routes.js';
import { mountMethodRules } from './rest-conventions.js';

export const VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export interface AppOptions {
  store: Store;
  clock?: Clock;
  /** The address the server binds; decides which Host names are accepted. */
  host?: string;
  /** Extra hostnames accepted in Host/Origin (CAIRN_ALLOWED_HOSTS). */
  allowedHosts?: string[];
  /** Largest request body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Per-token rate limit; false turns it off. Default 100/s with a burst of 200. */
  rateLimit?: RateLimitOptions | false;
  /** Where access-log entries go; false for none. Default: the logger, at info. */
  accessLog?: AccessLogSink | false;
  /** Every line the server writes (log.ts). Default: JSON on stderr at info, with the replica id. */
  logger?: Logger;
  /** How often to look for commits by other processes (default 100 ms). */
  changeIntervalMs?: number;
  /** How 2025 MCP clients are served (default 'sessions'). */
  mcpLegacy?: 'sessions' | 'stateless';
  sseHeartbeatMs?: number;
  /** 2025 MCP sessions: idle timeout and cap (defaults 10 min, 1000). */
  mcpSessionIdleMs?: number;
  mcpMaxSessions?: number;
  /** How long a 2025 session outlives its closed listen stream with nothing sent (default 10 s). */
  mcpStreamGraceMs?: number;
  /** Called when a 2025 MCP session has ended (`cairn serve` compacts its heap once they have). */
  onMcpSessionEnded?: () => void;
  /** Open SSE streams at most, in all and per token (defaults 256 and 32). */
  maxEventStreams?: number;
  maxEventStreamsPerToken?: number;
  /** How long an Idempotency-Key is remembered, in days (CAIRN_IDEMPOTENCY_DAYS; default 7). Handoff keys are kept for good. */
  keyRetentionDays?: number;
  /** Serve /metrics (CAIRN_METRICS, `--metrics`). Default: on for a server bound beyond loopback (whose tokens guard it), off on loopback. */
  metrics?: boolean;
  /** This process's name in /readyz, /metrics and logs (CAIRN_REPLICA_ID); default host name and pid. */
  replicaId?: string;
}

export interface CairnApp {
  app: Hono<AuthEnv>;
  feed: ChangeFeed;
  mcp: McpEndpoint;
  /** Resolves once no handler is running (streams count as done once their response has started), or after `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
  /** Ends SSE streams and MCP sessions, stops the feed (the store stays open: the caller owns it). */
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY = 1024 * 1024;
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perSecond: 100, burst: 200 };

function remoteOf(c: HonoContext): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A request id a caller or proxy sent (X-Request-Id), when it is short and plain enough to log as it is. */
const saneRequestId = (v: string | undefined) => (v && /^[\w.:-]{1,100}$/.test(v) ? v : undefined);

export async function createApp(opts: AppOptions): Promise<CairnApp> {
  const replica = opts.replicaId ?? `${hostname()}-${process.pid}`;
  const log = opts.logger ?? createLogger({ replica });
  setServerLog(log);
  const core: CoreContext = {
    store: opts.store,
    clock: opts.clock ?? systemClock,
    actor: 'http',
    openForeignSqlite,
    ...(opts.keyRetentionDays !== undefined ? { keyRetentionDays: opts.keyRetentionDays } : {}),
  };
  // A database that is down fails every poll until it is back: the same error at most every 10 s.
  let lastFeedError = { text: '', at: 0 };
  const feed = await followChanges(opts.store, {
    intervalMs: opts.changeIntervalMs ?? 100,
    onError: (err) => {
      const text = String(err);
      if (text === lastFeedError.text && Date.now() - lastFeedError.at < 10_000) return;
      lastFeedError = { text, at: Date.now() };
      log.warn({ error: text }, 'change feed: cannot read the database');
    },
    onRecovered: () => {
      lastFeedError = { text: '', at: 0 };
      log.info('change feed: the database answers again');
    },
  });
  const closing = new AbortController();
  const app = new Hono<AuthEnv>();
  app.onError(onAppError);
  let methods: ReturnType<typeof mountMethodRules> | undefined;
  app.notFound(
    (c) => methods?.methodNotAllowed(c.req.method, c.req.path) ?? httpError('ROUTE_NOT_FOUND', `No route ${c.req.method} ${c.req.path}.`, [`GET ${API_PREFIX}/openapi.json lists every route`]),
  );

  // Handlers in flight, so shutdown can let them finish before it ends the long-lived streams.
  let inflight = 0;
  let idle: (() => void) | undefined;
  app.use('*', async (c, next) => {
    inflight++;
    const id = saneRequestId(c.req.header('x-request-id')) ?? randomUUID();
    try {
      await withRequestId(id, next);
    } finally {
      // So a caller can quote it when reporting a problem; a response whose headers are fixed keeps its own.
      try {
        c.res.headers.set('x-request-id', id);
      } catch {
        // immutable headers
      }
      if (--inflight === 0) idle?.();
    }
  });
  if (opts.accessLog !== false) app.use('*', accessLog(opts.accessLog ?? ((e) => log.info(e, 'http')), remoteOf));
  const bindHost = opts.host ?? '127.0.0.1';
  let sseStreams = () => 0;
  let mcpSessions = () => 0;
  const metrics = (opts.metrics ?? !isLoopbackHost(bindHost)) ? new Metrics({ store: opts.store, feed, replica, sseStreams: () => sseStreams(), mcpSessions: () => mcpSessions() }) : undefined;
  if (metrics) app.use('*', metrics.middleware());
  // Lease ends become claim_expired events on time; every replica runs one, and each lease is announced once.
  const leases = new LeaseWatch(core, {
    onError: (err) => log.warn({ error: String(err) }, 'lease watch: cannot announce ended leases'),
    ...(metrics ? { onAnnounced: (n: number) => metrics.claimsExpired(n) } : {}),
  }).start();
  mountHealth(app, { store: opts.store, version: VERSION, replica });
  app.use('*', hostGuard(allowedHostnames(bindHost, opts.allowedHosts)));
  // The board's static files: behind the Host/Origin guard, before the token check (the page asks for the token).
  mountBoardAssets(app);
  const tokens = new TokenCache(core);
  // Streams and sessions outlive the request that was authorised: they end when their token is revoked.
  const revocations = new RevocationWatch(tokens);
  app.use('*', authMiddleware(tokens, !isLoopbackHost(bindHost)));
  mountMetrics(app, metrics);
  if (opts.rateLimit !== false) app.use('*', rateLimit(opts.rateLimit ?? DEFAULT_RATE_LIMIT, remoteOf));
  const maxSize = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
  app.use('*', bodyLimit({ maxSize, onError: () => httpError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxSize} bytes.`, ['Split the change into smaller calls']) }));

  const openapi = buildOpenApi(VERSION);
  app.get(`${API_PREFIX}/openapi.json`, () => json(200, openapi));
  sseStreams = mountEvents(app, core, {
    feed,
    closing: closing.signal,
    revocations,
    ...(opts.sseHeartbeatMs ? { heartbeatMs: opts.sseHeartbeatMs } : {}),
    ...(opts.maxEventStreams ? { maxStreams: opts.maxEventStreams } : {}),
    ...(opts.maxEventStreamsPerToken ? { maxStreamsPerToken: opts.maxEventStreamsPerToken } : {}),
  });
  mountRestRoutes(app, core);
  methods = mountMethodRules(app, API_PREFIX, [
    { path: `${API_PREFIX}/openapi.json`, method: 'GET' },
    { path: `${API_PREFIX}/events`, method: 'GET' },
  ]);
  const mcp = mountMcp(app, core, {
    feed,
    revocations,
    ...(opts.mcpLegacy ? { legacy: opts.mcpLegacy } : {}),
    ...(opts.mcpSessionIdleMs ? { sessionIdleMs: opts.mcpSessionIdleMs } : {}),
    ...(opts.mcpMaxSessions ? { maxSessions: opts.mcpMaxSessions } : {}),
    ...(opts.mcpStreamGraceMs ? { streamGraceMs: opts.mcpStreamGraceMs } : {}),
    ...(opts.onMcpSessionEnded ? { onSessionEnded: opts.onMcpSessionEnded } : {}),
    // A tool error is an HTTP 200 to the access log: it is logged here, by tool and code.
    onToolCall: (surface: string, tool: string, outcome: string, ms: number) => {
      metrics?.toolCall(surface, tool, outcome, ms);
      if (outcome !== 'ok') log.info({ surface, tool, code: outcome, ms: Math.round(ms * 10) / 10 }, 'mcp tool error');
    },
    onError: (err: Error) => log.warn({ error: err.message }, 'mcp'),
  });
  mcpSessions = () => mcp.sessionCount;

  return {
    app,
    feed,
    mcp,
    async drain(timeoutMs) {
      if (inflight === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((r) => (idle = r)), new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
      clearTimeout(timer);
      idle = undefined;
    },
    async close() {
      const watchStopped = leases.stop();
      closing.abort();
      revocations.close();
      metrics?.close();
      await mcp.close();
      await Promise.all([feed.close(), watchStopped]);
    },
  };
}
