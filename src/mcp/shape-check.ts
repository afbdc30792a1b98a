/**
 * A quick test that a tool result already is what its zod output schema describes: no key the
 * schema leaves out, at any depth, and the right kind of value everywhere (object, array, string,
 * finite number, boolean, enum member, null where nullable). A result that passes is sent as it is;
 * any other goes through zod, which strips extra keys or reports the mismatch. Parsing a task with
 * zod would be the largest share of a get or create call's own work in the MCP adapter, for a value
 * the op's typed code has already built to that schema. Refinements (lengths, integers, formats)
 * are left to the types that build results. Schema kinds not handled here (defaults, transforms,
 * unions, lazy…) send the whole result through zod.
 */
import type * as z from 'zod';

type Check = (value: unknown) => boolean;

const ANY: Check = () => true;

/** Compiled once per schema; undefined when the schema has a kind this file does not handle. */
const compiled = new WeakMap<z.ZodType, Check | undefined>();

export function shapeCheck(schema: z.ZodType): Check | undefined {
  if (compiled.has(schema)) return compiled.get(schema);
  // A schema that reaches itself (none of Cairn's does) is left to zod rather than recursing forever.
  compiled.set(schema, undefined);
  const check = build(schema);
  compiled.set(schema, check);
  return check;
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  entries?: Record<string, string | number>;
};

function build(schema: z.ZodType): Check | undefined {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'unknown':
    case 'any':
      return ANY;
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v as string);
    }
    case 'optional': {
      const inner = shapeCheck(def.innerType!);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'nullable': {
      const inner = shapeCheck(def.innerType!);
      return inner && ((v) => v === null || inner(v));
    }
    case 'array': {
      const element = shapeCheck(def.element!);
      return element && ((v) => Array.isArray(v) && v.every(element));
    }
    case 'record': {
      const value = shapeCheck(def.valueType!);
      return value && ((v) => isPlainObject(v) && Object.values(v).every(value));
    }
    case 'object':
      return objectCheck(def);
    default:
      return undefined;
  }
}

function objectCheck(def: Def): Check | undefined {
  // A loose object keeps keys it does not name; zod decides what that means.
  if (def.catchall && (def.catchall as unknown as { _zod: { def: Def } })._zod.def.type !== 'never') return undefined;
  const fields: Array<[string, Check]> = [];
  for (const [key, schema] of Object.entries(def.shape ?? {})) {
    const check = shapeCheck(schema);
    if (!check) return undefined;
    fields.push([key, check]);
  }
  const known = new Set(fields.map(([key]) => key));
  return (v) => {
    if (!isPlainObject(v)) return false;
    for (const key of Object.keys(v)) if (!known.has(key)) return false;
    for (const [key, check] of fields) if (!check(v[key])) return false;
    return true;
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
