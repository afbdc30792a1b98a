/** Per-token rate limiting with token buckets: a steady rate plus a burst; callers without a token are keyed by address. */
import type { MiddlewareHandler } from 'hono';
import type { AuthEnv } from './auth.js';
import { addressKey, BucketMap } from './address-buckets.js';
import { httpError } from './http-errors.js';

export interface RateLimitOptions {
  /** Sustained requests per second per token. */
  perSecond: number;
  /** Bucket size; default twice the rate. */
  burst?: number;
  /** Also limit callers without a token (local, token-less workspaces); default false. */
  anonymous?: boolean;
}

export function rateLimit(opts: RateLimitOptions, remote: (c: Parameters<MiddlewareHandler>[0]) => string): MiddlewareHandler<AuthEnv> {
  const burst = opts.burst ?? Math.max(1, opts.perSecond * 2);
  const buckets = new BucketMap(burst, opts.perSecond);
  return async (c, next) => {
    const p = c.get('principal');
    if (!p.token && !opts.anonymous) return next();
    const key = p.token ? `t:${p.token.id}` : `a:${addressKey(remote(c))}`;
    const b = buckets.take(key, Date.now());
    if (b.tokens < 1) {
      const wait = Math.max(1, Math.ceil((1 - b.tokens) / opts.perSecond));
      return httpError('RATE_LIMITED', `Too many requests for this token (limit ${opts.perSecond}/s, burst ${burst}). Retry in ${wait} s.`, ['Slow down or spread the work over several tokens'], {
        'retry-after': String(wait),
      });
    }
    b.tokens -= 1;
    return next();
  };
}
