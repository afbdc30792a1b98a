/** The one place that maps errors to HTTP: CairnError kinds to statuses, plus the few transport-only codes, in one JSON shape. */
import type { Context } from 'hono';
import { type CairnError, toCairnError, type ErrorKind } from '../core/errors.js';
import { serverLog } from './log.js';
import { restSuggestion } from './rest-suggestions.js';

/** Status per CairnError kind; the codes below override where HTTP has a more precise answer. */
const KIND_STATUS: Record<ErrorKind, number> = { invalid: 400, not_found: 404, conflict: 409, forbidden: 403, internal: 500 };
/** A workspace locked by another writer, or a database server that is down, is temporary: 503 tells clients to retry. A full disk is 507 (Insufficient Storage). */
const CODE_STATUS: Partial<Record<string, number>> = { BUSY: 503, DATABASE_UNAVAILABLE: 503, DISK_FULL: 507 };

import { HTTP_ONLY_CODES, type HttpOnlyCode } from '../ops/http-codes.js';

export { HTTP_ONLY_CODES, type HttpOnlyCode };

export interface ErrorBody {
  error: { code: string; message: string; suggestions: string[]; details?: Record<string, unknown> };
}

export function statusOf(err: CairnError): number {
  return CODE_STATUS[err.code] ?? KIND_STATUS[err.kind];
}

/** The request header a client sends to get suggestions as the ops' tool calls (a remote runner, which shows them in its own surface's terms). */
export const SUGGESTIONS_HEADER = 'x-cairn-suggestions';

/**
 * Any thrown value as the `{error:{code,message,suggestions}}` response; unknown throws are logged
 * as bugs. `asCalls`: keep the suggestions as the ops wrote them (SUGGESTIONS_HEADER: calls).
 */
export function errorResponse(err: unknown, headers: Record<string, string> = {}, asCalls = false): Response {
  const e = toCairnError(err);
  if (e.code === 'INTERNAL') serverLog().error({ stack: String((e.cause as Error | undefined)?.stack ?? e.stack) }, 'internal error');
  // The ops suggest tool calls; an HTTP client is told the routes instead.
  const body = { ...e.toJSON(), suggestions: asCalls ? e.suggestions : e.suggestions.map(restSuggestion) };
  return json(statusOf(e), { error: body }, { ...(e.code === 'BUSY' || e.code === 'DATABASE_UNAVAILABLE' ? { 'retry-after': '1' } : {}), ...headers });
}

/** A transport-level refusal (401, 413, 429 …) in the same body shape as core errors. */
export function httpError(code: HttpOnlyCode, message: string, suggestions: string[] = [], headers: Record<string, string> = {}): Response {
  // After a 413 the rest of the body is still on its way and was never read: that socket cannot carry
  // another request, so say so (the server closes it) rather than advertise keep-alive.
  const close: Record<string, string> = code === 'PAYLOAD_TOO_LARGE' ? { connection: 'close' } : {};
  return json(HTTP_ONLY_CODES[code], { error: { code, message, suggestions } }, { ...close, ...headers });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/** Hono's error hook: everything not answered by a route ends here. */
export function onAppError(err: unknown, _c: Context): Response {
  return errorResponse(err);
}
