/** The REST API: one route per op, generated from each op's `rest` binding; no route is written by hand. */
import type { Hono } from 'hono';
import { gateRefusal, OPS, runOp, type Op, type OpContext } from '../ops/index.js';
import { INSUFFICIENT_SCOPE_HEADER, type AuthEnv, type Principal } from './auth.js';
import { errorResponse, httpError, json, SUGGESTIONS_HEADER } from './http-errors.js';
import { bodyInput, mergePathParams, pathParams, queryInput, UnsupportedMediaType } from './rest-input.js';
import { answerHeaders, applyIfMatch, PreconditionFailed, successStatus } from './rest-conventions.js';
import type { Context as CoreContext } from '../core/context.js';
import { CairnError } from '../core/errors.js';
import { limitToProjects } from '../core/limited-store.js';
import type { Store } from '../core/ports.js';

export const API_PREFIX = '/api/v1';

export const MAX_ACTOR_LENGTH = 100;

/**
 * Who the caller acts as (recorded in history, used for claims). A token's name is its actor. Naming
 * another actor (X-Cairn-Actor or ?as=) needs a principal that may act as others: an admin token,
 * recorded as `via` "token:NAME", or a loopback caller of a workspace without tokens (the same user
 * could open the database with any --as). Naming oneself is always allowed. A name that is too long
 * or holds control characters is refused rather than replaced, so two callers never share an identity.
 */
export function identityFor(p: Principal, requested: string | undefined): { actor: string; via?: string; mayTakeOver?: false } {
  // Taking over another's live claim is for a principal that could act as the holder anyway (claim-guard.ts).
  const steer: { mayTakeOver?: false } = p.actAs ? {} : { mayTakeOver: false };
  const own = p.token ? p.token.name : 'http';
  if (requested === undefined || requested.trim() === '') return { actor: own, ...steer };
  const name = requested.trim();
  if (name.length > MAX_ACTOR_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new CairnError('VALIDATION_ERROR', `X-Cairn-Actor (or ?as=) must be 1-${MAX_ACTOR_LENGTH} characters without control characters; got ${name.length} characters. Nothing was done.`, {
      suggestions: [`Use a shorter actor name, e.g. "agent:claude-1"`],
      details: { field: 'actor', maxLength: MAX_ACTOR_LENGTH },
    });
  }
  if (name === own) return { actor: own, ...steer };
  if (!p.actAs) {
    throw new CairnError('FORBIDDEN', `This token ("${p.token?.name}") acts as "${own}" and cannot act as "${name}": acting as another actor needs a token with scope "admin". Nothing was done.`, {
      suggestions: [
        `Leave out X-Cairn-Actor and ?as= to act as "${own}"`,
        `cairn token create --name ${name} --scope write (a token of its own for that agent)`,
        'cairn token create --name NAME --scope admin',
      ],
      details: { requiredScope: 'admin' },
    });
  }
  return p.token ? { actor: name, via: `token:${p.token.name}` } : { actor: name };
}

/** The actor alone (see identityFor). */
export function actorFor(p: Principal, requested: string | undefined): string {
  return identityFor(p, requested).actor;
}

/**
 * Whose idempotency keys a caller's are: a token's own (another token's same key is another key),
 * and the server's retention for them.
 */
export function keyRules(core: CoreContext, p: Principal): Pick<OpContext, 'keyScope' | 'keyRetentionDays'> {
  return { ...(p.token ? { keyScope: `token:${p.token.id}` } : {}), ...(core.keyRetentionDays !== undefined ? { keyRetentionDays: core.keyRetentionDays } : {}) };
}

/** The store as this caller may see it: a project-limited token's view reaches only its projects. */
export function storeFor(core: CoreContext, p: Principal): Store {
  return p.projects ? limitToProjects(core.store, p.projects) : core.store;
}

/** The project a call works in when it names none: the one project a token is limited to. */
export function tokenProject(p: Principal): string | undefined {
  return p.projectKeys?.length === 1 ? p.projectKeys[0] : undefined;
}

/**
 * Whether the caller may manage API tokens (admin ops): the token-less loopback caller of a workspace
 * without tokens (who could run `cairn token` on this machine), or an admin token that reaches every
 * project. A token limited to projects may not: it could mint itself one that reaches them all.
 */
export function mayAdminister(p: Principal): boolean {
  return p.token === null || (p.token.scope === 'admin' && !p.projects);
}

export function opContext(core: CoreContext, p: Principal, actorHeader: string | undefined): OpContext {
  const project = tokenProject(p);
  return {
    store: storeFor(core, p),
    clock: core.clock,
    ...identityFor(p, actorHeader),
    ...keyRules(core, p),
    ...(core.openForeignSqlite ? { openForeignSqlite: core.openForeignSqlite } : {}),
    mayAdminister: mayAdminister(p),
    ...(p.scope === 'read' ? { readOnly: true, readOnlyReason: 'token' as const } : {}),
    ...(project ? { defaultProject: project } : {}),
  };
}

export function mountRestRoutes(app: Hono<AuthEnv>, core: CoreContext): void {
  for (const op of OPS as readonly Op[]) {
    const params = pathParams(op.rest.path);
    app.on(op.rest.method, API_PREFIX + op.rest.path, async (c) => {
      const principal = c.get('principal');
      const asCalls = c.req.header(SUGGESTIONS_HEADER) === 'calls';
      let fromIfMatch = false;
      try {
        const url = new URL(c.req.url);
        const base = op.rest.method === 'GET' ? queryInput(op, url) : op.rest.method === 'DELETE' ? { ...queryInput(op, url), ...(await bodyInput(op, c.req.raw)) } : await bodyInput(op, c.req.raw);
        const pathValues = Object.fromEntries(params.map((k) => [k, c.req.param(k) as string]));
        const ctx = opContext(core, principal, c.req.header('x-cairn-actor'));
        // Before If-Match reads anything: a read token's write is refused here, as runOp would (write-gate.ts).
        const refusal = gateRefusal(op, ctx);
        if (refusal) throw refusal;
        // Idempotency-Key (an outbox delivery, a retry): the write happens once per key (runOp).
        const key = idempotencyKeyOf(c.req.header('idempotency-key'));
        // If-Match on PATCH/DELETE: 412 when the task or project changed since the caller read it.
        const pre = await applyIfMatch(op, ctx, c.req.header('if-match'), pathValues, mergePathParams(op, base, pathValues));
        fromIfMatch = pre.fromIfMatch;
        const out = await runOp(op, key ? { ...ctx, idempotencyKey: key } : ctx, pre.input);
        const status = successStatus(op);
        return json(status, out, answerHeaders(API_PREFIX, status, out));
      } catch (err) {
        if (err instanceof UnsupportedMediaType) return httpError('UNSUPPORTED_MEDIA_TYPE', err.message, ['Content-Type: application/json']);
        if (err instanceof PreconditionFailed || (fromIfMatch && err instanceof CairnError && err.code === 'VERSION_CONFLICT')) {
          return httpError('PRECONDITION_FAILED', err.message, ['GET the resource again, then retry with its new ETag in If-Match']);
        }
        if (!(err instanceof CairnError) || (err.code !== 'FORBIDDEN' && err.code !== 'READ_ONLY')) return errorResponse(err, {}, asCalls);
        const scope = (err.details as { requiredScope?: string } | undefined)?.requiredScope;
        if (!scope) return errorResponse(err, {}, asCalls);
        return errorResponse(err, scope === 'admin' ? { 'www-authenticate': 'Bearer realm="cairn", error="insufficient_scope", scope="admin"' } : INSUFFICIENT_SCOPE_HEADER, asCalls);
      }
    });
  }
}

/**
 * The Idempotency-Key header, checked: cutting a long key would let two different writes whose keys
 * share a prefix pass for one (the second answered as a replay, never done), so it is refused.
 */
function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = header.trim();
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY) {
    throw new CairnError('VALIDATION_ERROR', `Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY} characters; this one has ${key.length}. Nothing was changed.`, {
      suggestions: ['Send a shorter key, e.g. a UUID', 'Leave the header out for a write that need not be deduplicated'],
      details: { length: key.length, max: MAX_IDEMPOTENCY_KEY },
    });
  }
  return key;
}

const MAX_IDEMPOTENCY_KEY = 200;
