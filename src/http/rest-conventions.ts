/**
 * What HTTP clients expect of a REST API beyond the op itself: ETag on task and project answers,
 * If-Match preconditions (412 when stale), Location on 201, and 405 with Allow (OPTIONS answered)
 * for a known path asked with the wrong method. Derived from the same op list as the routes.
 */
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { CairnError } from '../core/errors.js';
import { findOp, OPS, runOp, type Op, type OpContext } from '../ops/index.js';
import type { AuthEnv } from './auth.js';
import { httpError } from './http-errors.js';

/** A task's ETag is its version (what expectedVersion checks), so If-Match maps onto the op's own atomic check. */
export const taskEtag = (t: { version: number }): string => `"v${t.version}"`;
/** A project has no version: its ETag is a digest of the representation. */
export const projectEtag = (p: unknown): string => `"p${createHash('sha256').update(JSON.stringify(p)).digest('base64url').slice(0, 22)}"`;

/** The ETag of an op's answer when it is one task or one project; undefined otherwise. */
export function etagOf(out: unknown): string | undefined {
  const o = out as { task?: { version?: unknown }; project?: unknown } | null;
  if (o && typeof o.task?.version === 'number') return taskEtag(o.task as { version: number });
  if (o && o.project && typeof o.project === 'object') return projectEtag(o.project);
  return undefined;
}

/** The status of a successful answer, for the route and its OpenAPI entry alike: 201 for a POST that creates (create_*), else 200. */
export function successStatus(op: Pick<Op, 'name' | 'rest'>): 200 | 201 {
  return op.rest.method === 'POST' && op.name.startsWith('create_') ? 201 : 200;
}

/** Where a created resource lives (the Location of a 201). */
export function locationOf(prefix: string, out: unknown): string | undefined {
  const o = out as { task?: { id?: unknown }; project?: { key?: unknown } } | null;
  if (typeof o?.task?.id === 'string') return `${prefix}/tasks/${encodeURIComponent(o.task.id)}`;
  if (typeof o?.project?.key === 'string') return `${prefix}/projects/${encodeURIComponent(o.project.key)}`;
  return undefined;
}

/** Response headers for a successful op answer. */
export function answerHeaders(prefix: string, status: number, out: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  const etag = etagOf(out);
  if (etag) headers.etag = etag;
  const location = status === 201 ? locationOf(prefix, out) : undefined;
  if (location) headers.location = location;
  return headers;
}

/** If-Match did not match the resource's current ETag. */
export class PreconditionFailed extends Error {
  constructor(
    readonly current: string | undefined,
    readonly given: string,
  ) {
    super(`If-Match ${given} does not match the current ETag${current ? ` ${current}` : ''}: the resource changed since you read it (or is gone). Nothing was changed.`);
  }
}

/** The entity tags of an If-Match value (`*`, or a comma list of strong tags; weak ones never match, RFC 9110 §13.1.1). */
function parseIfMatch(value: string): string[] | '*' {
  if (value.trim() === '*') return '*';
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('W/'));
}

/**
 * Checks If-Match on a PATCH or DELETE before the op runs, and returns the input to run it with. The
 * resource is the route's task (`:id`/`:taskId`) or project (`:key`). For a task op with
 * expectedVersion and a single tag, the version goes into the input too, so the check also holds
 * atomically inside the write (a VERSION_CONFLICT then reports as 412 as well).
 */
export async function applyIfMatch(
  op: Op,
  ctx: OpContext,
  ifMatch: string | undefined,
  path: Record<string, string>,
  input: Record<string, unknown>,
): Promise<{ input: Record<string, unknown>; fromIfMatch: boolean }> {
  if (ifMatch === undefined || (op.rest.method !== 'PATCH' && op.rest.method !== 'DELETE')) return { input, fromIfMatch: false };
  const tags = parseIfMatch(ifMatch);
  const taskId = path.id ?? path.taskId;
  const read = taskId !== undefined ? { op: 'get_task', args: { id: taskId } } : path.key !== undefined ? { op: 'get_project', args: { key: path.key } } : undefined;
  if (!read) return { input, fromIfMatch: false };
  let current: string | undefined;
  try {
    current = etagOf(await runOp(findOp(read.op)!, { ...ctx, readOnly: true }, read.args));
  } catch (err) {
    // A missing resource fails any If-Match (even *); other errors are the op's to report.
    if (!(err instanceof CairnError) || err.kind !== 'not_found') throw err;
  }
  if (current === undefined || (tags !== '*' && !tags.includes(current))) throw new PreconditionFailed(current, ifMatch);
  const version = tags !== '*' && tags.length === 1 ? /^"v(\d+)"$/.exec(tags[0]!)?.[1] : undefined;
  if (version && 'expectedVersion' in op.input.shape && input.expectedVersion === undefined) return { input: { ...input, expectedVersion: Number(version) }, fromIfMatch: true };
  return { input, fromIfMatch: false };
}

/** The REST paths as patterns, each with the methods it answers (OPTIONS on all). */
function routeTable(prefix: string, extra: Array<{ path: string; method: string }>): Array<{ path: string; re: RegExp; methods: string[] }> {
  const byPath = new Map<string, Set<string>>();
  for (const r of [...(OPS as readonly Op[]).map((op) => ({ path: prefix + op.rest.path, method: op.rest.method })), ...extra]) {
    (byPath.get(r.path) ?? byPath.set(r.path, new Set()).get(r.path)!).add(r.method);
  }
  return [...byPath].map(([path, methods]) => ({
    path,
    re: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
    methods: [...methods, ...(methods.has('GET') ? ['HEAD'] : []), 'OPTIONS'],
  }));
}

/**
 * OPTIONS on every REST path (204 with Allow), and `methodNotAllowed` for the not-found hook: a
 * known path asked with another method is 405 with Allow, not 404.
 */
export function mountMethodRules(app: Hono<AuthEnv>, prefix: string, extra: Array<{ path: string; method: string }> = []): { methodNotAllowed(method: string, path: string): Response | undefined } {
  const table = routeTable(prefix, extra);
  for (const r of table) app.options(r.path, () => new Response(null, { status: 204, headers: { allow: r.methods.join(', ') } }));
  return {
    methodNotAllowed(method, path) {
      const r = table.find((x) => x.re.test(path));
      if (!r || r.methods.includes(method)) return undefined;
      return httpError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; it answers ${r.methods.join(', ')}.`, [`GET ${prefix}/openapi.json lists every route and its methods`], {
        allow: r.methods.join(', '),
      });
    },
  };
}
