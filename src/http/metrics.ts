/**
 * What an operator scrapes at /metrics (Prometheus text format, prom-client): requests by route and
 * status, MCP tool calls by tool and outcome, open streams and sessions, the database pool, the
 * change feed and the events it carried. One registry per app, so two servers in one process (tests,
 * a replica beside a benchmark) count apart.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { systemClock, type Store } from '../core/ports.js';
import { changesSinceOp } from '../ops/history-ops.js';
import { runOp } from '../ops/run-op.js';
import type { ChangeFeed } from '../core/services/change-feed.js';

export interface MetricSources {
  store: Store;
  feed: ChangeFeed;
  sseStreams(): number;
  mcpSessions(): number;
  replica: string;
}

/** Seconds, from a fast answer on this machine to a slow database (a request past 10 s is in +Inf). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * The route a request matched, as declared (`/api/v1/tasks/:id`), so ids never become label values;
 * `unmatched` for a path no route declares (a 404), which would otherwise let any caller add series.
 */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const routes = matchedRoutes(c).filter((r) => r.method !== 'ALL' || (r.path !== '*' && r.path !== '/*'));
  return routes[routes.length - 1]?.path ?? 'unmatched';
}

/** Seconds: an idle connection is handed over in microseconds; a full pool makes callers wait up to its 10 s timeout. */
const POOL_WAIT_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #latency: Histogram<'method' | 'route'>;
  readonly #toolCalls: Counter<'surface' | 'tool' | 'outcome'>;
  readonly #toolLatency: Histogram<'surface' | 'tool'>;
  readonly #events: Counter<'type'>;
  readonly #keys: Counter<'outcome'>;
  readonly #expiries: Counter;
  /** Stops listening to the store (its pool waits); the store may outlive this server. */
  readonly #unsubscribe: () => void;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ replica: sources.replica });
    collectDefaultMetrics({ register: this.registry, prefix: 'cairn_' });
    this.#requests = new Counter({ name: 'cairn_http_requests_total', help: 'HTTP requests answered, by method, declared route and status', labelNames: ['method', 'route', 'status'], registers });
    this.#latency = new Histogram({
      name: 'cairn_http_request_duration_seconds',
      help: 'Time to answer an HTTP request (a stream: until its response began)',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#toolCalls = new Counter({
      name: 'cairn_mcp_tool_calls_total',
      help: 'MCP tool calls, by surface (native, or a profile), tool and outcome (ok, or the error code of a tool error)',
      labelNames: ['surface', 'tool', 'outcome'],
      registers,
    });
    this.#toolLatency = new Histogram({ name: 'cairn_mcp_tool_call_duration_seconds', help: 'Time to run an MCP tool call', labelNames: ['surface', 'tool'], buckets: LATENCY_BUCKETS, registers });
    this.#events = new Counter({
      name: 'cairn_feed_events_total',
      help: 'Events the change feed delivered, by type (task.claimed, task.released, task.claim_renewed and every other)',
      labelNames: ['type'],
      registers,
    });
    this.#keys = new Counter({
      name: 'cairn_idempotent_writes_total',
      help: 'Writes sent with an Idempotency-Key (outbox deliveries and their retries), by outcome: ok, refused (4xx) or failed (5xx)',
      labelNames: ['outcome'],
      registers,
    });
    this.#expiries = new Counter({
      name: 'cairn_claim_expiries_total',
      help: 'Leases that ran out and this replica announced (task.claim_expired): each lease is announced by one replica, so the sum over replicas counts every expiry once',
      registers,
    });
    new Gauge({
      name: 'cairn_sse_streams',
      help: 'Open SSE event streams (/api/v1/events)',
      registers,
      collect() {
        this.set(sources.sseStreams());
      },
    });
    new Gauge({
      name: 'cairn_mcp_sessions',
      help: 'Open MCP sessions of 2025-era clients (2026 clients keep none)',
      registers,
      collect() {
        this.set(sources.mcpSessions());
      },
    });
    new Gauge({
      name: 'cairn_feed_last_seq',
      help: 'Number of the newest event this replica has delivered to its live views',
      registers,
      collect() {
        this.set(sources.feed.lastSeq);
      },
    });
    const lag = new Gauge({ name: 'cairn_feed_lag_events', help: 'Events committed that this replica has not delivered yet (read at scrape time)', registers });
    const pool = new Gauge({ name: 'cairn_db_pool_connections', help: 'Database connections of this process (PostgreSQL), by state', labelNames: ['state'], registers });
    const waiting = new Gauge({ name: 'cairn_db_pool_waiting', help: 'Callers waiting for a database connection (PostgreSQL)', registers });
    const waits = new Histogram({
      name: 'cairn_db_pool_wait_seconds',
      help: 'Time each database call waited for a pool connection (PostgreSQL): a full pool shows here first',
      buckets: POOL_WAIT_BUCKETS,
      registers,
    });
    this.#unsubscribe = sources.store.observePoolWaits?.((seconds) => waits.observe(seconds)) ?? (() => undefined);
    const lockWaits = new Gauge({ name: 'cairn_db_lock_waits', help: "Transactions that found SQLite's write lock held by another process and waited, since the server started", registers });
    const schema = new Gauge({ name: 'cairn_schema_version', help: 'Schema version of the database', registers });
    // Read at scrape time, once for all four: a scrape that cannot reach the database still answers, without them.
    new Gauge({
      name: 'cairn_db_up',
      help: '1 when the database answered this scrape',
      registers,
      async collect() {
        try {
          const [status, last] = await Promise.all([
            sources.store.status?.(),
            runOp(changesSinceOp, { store: sources.store, clock: systemClock, actor: 'metrics' }, { since: 0, limit: 1 }).then((r) => r.headSeq),
          ]);
          lag.set(Math.max(0, last - sources.feed.lastSeq));
          if (status) schema.set(status.schemaVersion);
          if (status?.lockWaits !== undefined) lockWaits.set(status.lockWaits);
          if (status?.pool) {
            pool.set({ state: 'in_use' }, status.pool.total - status.pool.idle);
            pool.set({ state: 'idle' }, status.pool.idle);
            waiting.set(status.pool.waiting);
          }
          this.set(1);
        } catch {
          this.set(0);
        }
      },
    });
    sources.feed.subscribe((events) => {
      for (const e of events) this.#events.inc({ type: e.type });
    });
  }

  /** Counts every request once its response is known. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const start = performance.now();
      try {
        await next();
      } finally {
        const route = routeOf(c);
        this.#requests.inc({ method: c.req.method, route, status: String(c.res.status) });
        this.#latency.observe({ method: c.req.method, route }, (performance.now() - start) / 1000);
        if (c.req.header('idempotency-key')) this.#keys.inc({ outcome: c.res.status < 400 ? 'ok' : c.res.status < 500 ? 'refused' : 'failed' });
      }
    };
  }

  /** Leases this replica announced as ended (lease-expiry.ts). */
  claimsExpired(n: number): void {
    this.#expiries.inc(n);
  }

  toolCall(surface: string, tool: string, outcome: string, ms: number): void {
    this.#toolCalls.inc({ surface, tool, outcome });
    this.#toolLatency.observe({ surface, tool }, ms / 1000);
  }

  close(): void {
    this.#unsubscribe();
  }

  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
