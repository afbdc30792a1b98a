/**
 * Bearer tokens: who is calling and with which scope. With no live token in the workspace every
 * (loopback) caller may write; once one exists, every request needs a valid one.
 */
import type { MiddlewareHandler } from 'hono';
import type { LiveToken, TokenCache } from '../ops/token-check.js';

export { TokenCache } from '../ops/token-check.js';
import { AuthFailureLimiter, clientAddress } from './auth-failures.js';
import { CairnError } from '../core/errors.js';
import { errorResponse, httpError } from './http-errors.js';

export interface Principal {
  /** Null when the workspace has no tokens and the caller sent none. */
  token: Pick<LiveToken, 'id' | 'name' | 'scope'> | null;
  /** What the caller may do to data; an admin token writes ("write") and may also act as others. */
  scope: 'read' | 'write';
  /** May name another actor (X-Cairn-Actor, ?as=): admin tokens, and loopback callers when the workspace has no token. */
  actAs?: boolean;
  /** The uids of the only projects the token reaches (core/limited-store.ts); absent: every project. */
  projects?: readonly string[];
  /** Their keys: a token limited to one project works in it without naming it. */
  projectKeys?: readonly string[];
}

export type AuthEnv = { Variables: { principal: Principal } };

const TOUCH_EVERY_MS = 60_000;

/** The secret from `Authorization: Bearer …`, or from `?access_token=` where headers cannot be set (EventSource). */
function presentedSecret(req: Request, allowQuery: boolean): string | undefined {
  const h = req.headers.get('authorization');
  if (h) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    return m ? m[1] : '';
  }
  if (allowQuery) return new URL(req.url).searchParams.get('access_token') ?? undefined;
  return undefined;
}

/**
 * `alwaysRequire`: a server bound beyond loopback never serves anonymous callers, even if every token is
 * revoked after it started. For the same reason, such a server does not start without a token.
 */
export function authMiddleware(cache: TokenCache, alwaysRequire = false): MiddlewareHandler<AuthEnv> {
  const touched = new Map<string, number>();
  const failures = new AuthFailureLimiter();
  return async (c, next) => {
    const addr = clientAddress(c);
    const wait = failures.retryAfter(addr);
    if (wait > 0) {
      return httpError('RATE_LIMITED', `Too many failed token attempts from ${addr}. Retry in ${wait} s.`, ['Check the token (cairn token list); a valid one works again once the wait is over'], {
        'retry-after': String(wait),
      });
    }
    const secret = presentedSecret(c.req.raw, c.req.path === '/api/v1/events');
    const tokens = await cache.get();
    if (secret === undefined) {
      if (tokens.size > 0 || alwaysRequire) {
        return httpError(
          'UNAUTHORIZED',
          'This server requires a bearer token (Authorization: Bearer cairn_…).',
          ['cairn token create --name NAME --scope read|write, then send it as a bearer token'],
          {
            'www-authenticate': 'Bearer realm="cairn"',
          },
        );
      }
      c.set('principal', { token: null, scope: 'write', actAs: true });
      return next();
    }
    const found = secret ? await cache.find(secret) : undefined;
    if (!found) {
      failures.fail(addr);
      return httpError('UNAUTHORIZED', 'The bearer token is not valid (unknown, revoked or malformed).', ['cairn token list shows live tokens; create a new one with cairn token create'], {
        'www-authenticate': 'Bearer realm="cairn", error="invalid_token"',
      });
    }
    // A scraper's token reads /metrics and nothing else: the data it could otherwise read is the workspace.
    if (found.scope === 'metrics' && c.req.path !== '/metrics') {
      return errorResponse(
        new CairnError('FORBIDDEN', `Token "${found.name}" has the metrics scope: it may read /metrics and nothing else.`, {
          suggestions: ['Use a read or write token for the API, MCP and the board'],
        }),
        {
          'www-authenticate': 'Bearer realm="cairn", error="insufficient_scope"',
        },
      );
    }
    c.set('principal', {
      token: { id: found.id, name: found.name, scope: found.scope },
      scope: found.scope === 'write' || found.scope === 'admin' ? 'write' : 'read',
      actAs: found.scope === 'admin',
      ...(found.projects ? { projects: found.projects, projectKeys: found.projectKeys ?? [] } : {}),
    });
    const now = Date.now();
    if (now - (touched.get(found.id) ?? 0) > TOUCH_EVERY_MS) {
      touched.set(found.id, now);
      // last-used is advisory: throttled to one write a minute per token, never delays or fails the request.
      void cache.touch(found.id).catch(() => undefined);
    }
    return next();
  };
}

export const INSUFFICIENT_SCOPE_HEADER = { 'www-authenticate': 'Bearer realm="cairn", error="insufficient_scope", scope="write"' };
