/** The REST API: one route per op, generated from each op's `rest` binding; no route is written by hand. */
import type { Hono } from 'hono';
import { OPS, runOp, type Op, type OpContext } from '../ops/index.js';
import { requireWrite, INSUFFICIENT_SCOPE_HEADER, type AuthEnv, type Principal } from './auth.js';
import { errorResponse, httpError, json } from './http-errors.js';
import { bodyInput, mergePathParams, pathParams, queryInput, UnsupportedMediaType } from './rest-input.js';
import type { Context as CoreContext } from '../core/context.js';
import { CairnError } from '../core/errors.js';

export const API_PREFIX = '/api/v1';

/** The actor recorded in history: X-Cairn-Actor when given, else the token's name, else "http". */
export function actorFor(p: Principal, header: string | undefined): string {
  const h = header?.trim();
  if (h && h.length <= 100 && !/[\u0000-\u001f]/.test(h)) return h;
  return p.token ? `token:${p.token.name}` : 'http';
}

export function opContext(core: CoreContext, p: Principal, actorHeader: string | undefined): OpContext {
  return { store: core.store, clock: core.clock, actor: actorFor(p, actorHeader), ...(p.scope === 'read' ? { readOnly: true } : {}) };
}

function restStatus(op: Op): number {
  return op.rest.method === 'POST' && op.name.startsWith('create_') ? 201 : 200;
}

export function mountRestRoutes(app: Hono<AuthEnv>, core: CoreContext): void {
  for (const op of OPS as readonly Op[]) {
    const params = pathParams(op.rest.path);
    app.on(op.rest.method, API_PREFIX + op.rest.path, async (c) => {
      const principal = c.get('principal');
      try {
        if (!op.readOnly) requireWrite(principal, op.name);
        const url = new URL(c.req.url);
        const base = op.rest.method === 'GET' ? queryInput(op, url) : op.rest.method === 'DELETE' ? { ...queryInput(op, url), ...(await bodyInput(op, c.req.raw)) } : await bodyInput(op, c.req.raw);
        const pathValues = Object.fromEntries(params.map((k) => [k, c.req.param(k) as string]));
        const out = await runOp(op, opContext(core, principal, c.req.header('x-cairn-actor')), mergePathParams(op, base, pathValues));
        return json(restStatus(op), out);
      } catch (err) {
        if (err instanceof UnsupportedMediaType) return httpError('UNSUPPORTED_MEDIA_TYPE', err.message, ['Content-Type: application/json']);
        return errorResponse(err, err instanceof CairnError && err.code === 'FORBIDDEN' ? INSUFFICIENT_SCOPE_HEADER : {});
      }
    });
  }
}
