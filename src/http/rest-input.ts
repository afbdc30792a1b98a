/**
 * Turns an HTTP request into an op's raw arguments: path params, then the query string (GET/DELETE,
 * typed by the op's own JSON Schema) or the JSON body (POST/PATCH). run-op validates the result.
 */
import * as z from 'zod';
import { CairnError } from '../core/errors.js';
import { flagValue } from '../core/rules/flag-value.js';
import type { Op } from '../ops/index.js';

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; items?: JsonSchema; properties?: Record<string, JsonSchema>; required?: string[] };

/** The op's input as JSON Schema (cached): drives query coercion here and the OpenAPI document. */
const inputSchemas = new WeakMap<Op, JsonSchema>();
export function inputJsonSchema(op: Op): JsonSchema & { properties: Record<string, JsonSchema> } {
  let s = inputSchemas.get(op);
  if (!s) {
    s = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    inputSchemas.set(op, s);
  }
  return s as JsonSchema & { properties: Record<string, JsonSchema> };
}

/** Path params (":id") of a REST path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}

function typesOf(s: JsonSchema | undefined): Set<string> {
  const out = new Set<string>();
  if (!s) return out;
  for (const t of Array.isArray(s.type) ? s.type : s.type ? [s.type] : []) out.add(t);
  for (const b of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) typesOf(b).forEach((t) => out.add(t));
  return out;
}

function itemsOf(s: JsonSchema | undefined): JsonSchema | undefined {
  if (!s) return undefined;
  if (s.items) return s.items;
  for (const b of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) if (b.items) return b.items;
  return undefined;
}

function scalar(v: string, s: JsonSchema | undefined): unknown {
  const t = typesOf(s);
  if ((t.has('number') || t.has('integer')) && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  if (t.has('boolean')) {
    const on = flagValue(v);
    if (on !== undefined) return on;
  }
  if (t.has('object') && !t.has('string') && v.trim().startsWith('{')) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

/** One query parameter per the field's schema: numbers, booleans, and arrays as repeated keys or comma lists. */
export function coerceQueryValue(values: string[], s: JsonSchema | undefined): unknown {
  const t = typesOf(s);
  if (t.has('array')) {
    const parts = values.flatMap((v) => (t.has('string') && values.length === 1 && !v.includes(',') ? [v] : v.split(',')));
    if (values.length === 1 && t.has('string') && parts.length === 1) return scalar(parts[0]!, s);
    const items = itemsOf(s);
    return parts.filter((p) => p !== '').map((p) => scalar(p, items));
  }
  return scalar(values[values.length - 1]!, s);
}

export function queryInput(op: Op, url: URL): Record<string, unknown> {
  const props = inputJsonSchema(op).properties ?? {};
  const out: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    if (key === 'access_token') continue;
    // Defined, not assigned: `out.__proto__ = …` would set the prototype and the key would vanish unrefused.
    Object.defineProperty(out, key, { value: coerceQueryValue(url.searchParams.getAll(key), props[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The JSON body as an object; an empty body is `{}`. Anything but JSON is refused so browsers must preflight cross-site writes. */
export async function bodyInput(op: Op, req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (text.trim() === '') return {};
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) throw new UnsupportedMediaType(type);
  // The body is read as UTF-8 whatever it says; one declared in another charset would be misread.
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(type)?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) throw new UnsupportedMediaType(type, `charset "${charset}" is not supported; send the JSON as UTF-8 (charset=utf-8 or none).`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CairnError('VALIDATION_ERROR', `Invalid arguments for ${op.name}: the body is not valid JSON (${(err as Error).message}). Nothing was changed.`, {
      suggestions: ['Send a JSON object with Content-Type: application/json'],
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CairnError('VALIDATION_ERROR', `Invalid arguments for ${op.name}: the body must be a JSON object of named arguments. Nothing was changed.`);
  }
  return value as Record<string, unknown>;
}

export class UnsupportedMediaType extends Error {
  constructor(
    readonly type: string,
    why = 'send application/json.',
  ) {
    super(`Content-Type "${type}" is not supported; ${why}`);
  }
}

/** Path params win over the same names in the body or query, and must not contradict them. */
export function mergePathParams(op: Op, input: Record<string, unknown>, params: Record<string, string>): Record<string, unknown> {
  for (const [k, v] of Object.entries(params)) {
    if (input[k] !== undefined && String(input[k]) !== v) {
      throw new CairnError('VALIDATION_ERROR', `Invalid arguments for ${op.name}: ${k} is "${v}" in the path but "${String(input[k])}" in the request. Nothing was changed.`, {
        suggestions: [`Drop ${k} from the body; the path names it`],
      });
    }
  }
  return { ...input, ...params };
}
