/**
 * What a load balancer and an orchestrator ask: /livez (the process answers), /readyz (it can serve:
 * database reachable, schema current, change feed listening), /healthz (an older probe, kept for the
 * checks that still ask it), and /metrics for a scraper. The probes sit before the Host guard and
 * token check, as probes arrive by address and carry no token; they reveal no data.
 */
import type { Hono } from 'hono';
import { CairnError, toCairnError } from '../core/errors.js';
import type { Store, StoreStatus } from '../core/ports.js';
import type { AuthEnv } from './auth.js';
import { errorResponse, httpError } from './http-errors.js';
import type { Metrics } from './metrics.js';

interface HealthSources {
  store: Store;
  version: string;
  replica: string;
}

const started = Date.now();
const uptimeS = () => Math.round((Date.now() - started) / 1000);
const UNAVAILABLE = { 'retry-after': '1', 'cache-control': 'no-store' };

/** Whether this Cairn can serve the schema: `current`, `older` (it would migrate on its next start) or `newer` (upgrade Cairn). */
function schemaState(s: StoreStatus): 'current' | 'older' | 'newer' {
  return s.schemaVersion === s.latestSchemaVersion || s.schemaVersion === 0 ? 'current' : s.schemaVersion < s.latestSchemaVersion ? 'older' : 'newer';
}

export function mountHealth(app: Hono<AuthEnv>, h: HealthSources): void {
  const base = () => ({ version: h.version, replica: h.replica, uptimeS: uptimeS() });
  app.get('/livez', (c) => c.json({ status: 'ok', ...base() }, 200, { 'cache-control': 'no-store' }));
  // 503 while the database cannot answer (a PostgreSQL server down or restarting).
  app.get('/healthz', async (c) => {
    try {
      await h.store.changeToken();
      return c.json({ status: 'ok', version: h.version });
    } catch (err) {
      return c.json({ status: 'unavailable', version: h.version, error: toCairnError(err).code }, 503, UNAVAILABLE);
    }
  });
  app.get('/readyz', async (c) => {
    let status: StoreStatus | undefined;
    try {
      await h.store.changeToken();
      status = await h.store.status?.();
    } catch (err) {
      return c.json({ status: 'unready', ...base(), checks: { database: toCairnError(err).code } }, 503, UNAVAILABLE);
    }
    const schema = status ? schemaState(status) : 'current';
    const feed = status?.listening === false ? 'reconnecting' : status?.listening ? 'listening' : 'polling';
    const ready = schema === 'current' && feed !== 'reconnecting';
    const body = {
      status: ready ? 'ready' : 'unready',
      ...base(),
      ...(status ? { engine: status.engine, schemaVersion: status.schemaVersion, latestSchemaVersion: status.latestSchemaVersion } : {}),
      ...(status?.pool ? { pool: status.pool } : {}),
      checks: { database: 'ok', schema, feed },
    };
    return c.json(body, ready ? 200 : 503, ready ? { 'cache-control': 'no-store' } : UNAVAILABLE);
  });
}

/**
 * /metrics behind the token check: with tokens in the workspace only a `metrics` or `admin` token
 * reads it; a loopback server without tokens serves it to its own machine. Off unless enabled.
 */
export function mountMetrics(app: Hono<AuthEnv>, metrics: Metrics | undefined): void {
  app.get('/metrics', async (c) => {
    if (!metrics) {
      return httpError('ROUTE_NOT_FOUND', 'Metrics are off on this server.', ['Start it with cairn serve --metrics (or CAIRN_METRICS=1); a server bound beyond loopback serves them by default']);
    }
    const token = c.get('principal').token;
    if (token && token.scope !== 'metrics' && token.scope !== 'admin') {
      return errorResponse(
        new CairnError('FORBIDDEN', `Token "${token.name}" has the ${token.scope} scope; /metrics needs a metrics or admin token.`, {
          suggestions: ['cairn token create --name prometheus --scope metrics'],
        }),
        {
          'www-authenticate': 'Bearer realm="cairn", error="insufficient_scope", scope="metrics"',
        },
      );
    }
    const out = await metrics.render();
    return c.body(out.body, 200, { 'content-type': out.contentType, 'cache-control': 'no-store' });
  });
}
