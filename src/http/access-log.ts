/** The access log: one entry per request, with the token's name but never a secret (the server's logger writes it, log.ts). */
import type { MiddlewareHandler } from 'hono';
import type { AuthEnv } from './auth.js';

export interface AccessLogEntry {
  method: string;
  path: string;
  /** Query string with secrets (access_token) redacted. */
  query?: string;
  status: number;
  ms: number;
  token: string | null;
  remote: string;
  ua?: string;
}

export type AccessLogSink = (entry: AccessLogEntry) => void;

function redactedQuery(url: URL): string | undefined {
  if (!url.search) return undefined;
  const q = new URLSearchParams(url.search);
  if (q.has('access_token')) q.set('access_token', 'REDACTED');
  return q.toString();
}

export function accessLog(sink: AccessLogSink, remote: (c: Parameters<MiddlewareHandler>[0]) => string): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const start = performance.now();
    try {
      await next();
    } finally {
      const url = new URL(c.req.url);
      const query = redactedQuery(url);
      const ua = c.req.header('user-agent');
      sink({
        method: c.req.method,
        path: url.pathname,
        ...(query ? { query } : {}),
        status: c.res.status,
        ms: Math.round((performance.now() - start) * 10) / 10,
        token: c.get('principal')?.token?.name ?? null,
        remote: remote(c),
        ...(ua ? { ua } : {}),
      });
    }
  };
}
