/** Derives CLI flags from an op's zod input shape, so a new op field becomes a flag without CLI code. */
import type * as z from 'zod';
import { fieldHelp, offHelp } from './flag-help.js';

/** How a flag's text becomes a value: as is, a number, a switch, a repeatable list, or JSON. */
export type FlagKind = 'string' | 'number' | 'boolean' | 'list' | 'json';

export interface FieldFlag {
  /** Where the value goes in the op input: one key, or two for a flattened object field (links.branch). */
  path: string[];
  /** Flag name without dashes, kebab-case (`expected-version`, `links-pr-url`). */
  flag: string;
  kind: FlagKind;
  /** For lists: whether the element is a number. */
  numeric: boolean;
  /** For lists: items may be comma-separated (ids, labels, enums; not free text such as checklist items). */
  split: boolean;
  /** `--no-<flag>` sends null (unassign, detach). */
  nullable: boolean;
  /** For json: each use adds elements to an array rather than replacing an object. */
  repeatable: boolean;
  required: boolean;
  description: string;
  /** For a boolean that is on by default: the help of its visible `--no-…` switch. */
  offDescription?: string;
  defaultValue?: unknown;
  choices?: string[];
}

type Schema = z.core.$ZodType;
const defOf = (s: Schema): z.core.$ZodTypeDef & Record<string, unknown> => s._zod.def as never;
const descOf = (s: Schema): string | undefined => (s as { description?: string }).description;

/** Free text is longer than this; shorter strings (ids, labels, names) may be comma-separated. */
const SPLITTABLE_MAX = 64;

interface Unwrapped {
  base: Schema;
  optional: boolean;
  nullable: boolean;
  description?: string;
  defaultValue?: unknown;
}

/** Peels optional/default/nullable/pipe wrappers, keeping the first description found. */
export function unwrap(schema: Schema): Unwrapped {
  const out: Unwrapped = { base: schema, optional: false, nullable: false };
  for (let s = schema; ; ) {
    out.description ??= descOf(s);
    const def = defOf(s);
    if (def.type === 'optional') out.optional = true;
    else if (def.type === 'nullable') out.nullable = true;
    else if (def.type === 'default' || def.type === 'prefault') {
      out.optional = true;
      out.defaultValue = (def as { defaultValue?: unknown }).defaultValue;
    } else if (def.type === 'pipe') {
      s = (def as unknown as { in: Schema }).in;
      continue;
    } else if (def.type !== 'readonly' && def.type !== 'catch') {
      out.base = s;
      return out;
    }
    s = (def as unknown as { innerType: Schema }).innerType;
  }
}

export const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function enumValues(s: Schema): string[] | undefined {
  const def = defOf(s);
  if (def.type === 'enum') return Object.values(def.entries as Record<string, string>).map(String);
  return undefined;
}

/** The element type of a list-like field: `T[]` or `T | T[]`. */
function listElement(s: Schema): Schema | undefined {
  const def = defOf(s);
  if (def.type === 'array') return unwrap(def.element as Schema).base;
  if (def.type === 'union') {
    const options = (def.options as Schema[]).map((o) => unwrap(o).base);
    const arr = options.find((o) => defOf(o).type === 'array');
    if (arr && options.length === 2) return unwrap(defOf(arr).element as Schema).base;
  }
  return undefined;
}

function isScalar(s: Schema): boolean {
  return ['string', 'enum', 'number'].includes(defOf(s).type);
}

function splittable(el: Schema): boolean {
  if (defOf(el).type !== 'string') return true;
  const max = (el as { maxLength?: number | null }).maxLength;
  return max === null || max === undefined || max <= SPLITTABLE_MAX;
}

/** `expectedVersion` → "expected version": a plain fallback where the schema has no description. */
const humanize = (path: string[]): string => path.map((p) => kebab(p).replace(/-/g, ' ')).join(' ');

function describe(u: Unwrapped, path: string[], choices: string[] | undefined, op: string | undefined): string {
  const text = fieldHelp(op, path, u.description) ?? humanize(path);
  const parts = [text];
  if (choices && !text.includes(choices.join('|'))) parts.push(`(${choices.join('|')})`);
  const d = u.defaultValue;
  // A boolean's default is said by which switch help shows; a text that names its default keeps it.
  if (d !== undefined && d !== '' && typeof d !== 'boolean' && typeof d !== 'object' && !/\bdefault\b/i.test(text)) parts.push(`(default: ${String(d)})`);
  return parts.filter(Boolean).join(' ');
}

/** One flag for a field; a plain object of scalars is flattened into one flag per key. */
function flagsFor(path: string[], schema: Schema, op?: string): FieldFlag[] {
  const u = unwrap(schema);
  const def = defOf(u.base);
  const base = { path, flag: path.map(kebab).join('-'), numeric: false, split: false, nullable: u.nullable, repeatable: false, required: !u.optional };
  const choices = enumValues(u.base);
  const mk = (kind: FlagKind, extra: Partial<FieldFlag> = {}): FieldFlag[] => [
    { ...base, kind, description: describe(u, path, choices, op), ...(u.defaultValue !== undefined ? { defaultValue: u.defaultValue } : {}), ...(choices ? { choices } : {}), ...extra },
  ];
  if (def.type === 'boolean' || (def.type === 'literal' && (def.values as unknown[]).every((v) => v === true))) {
    return mk('boolean', u.defaultValue === true ? { offDescription: offHelp(op, path, describe(u, path, choices, op)) } : {});
  }
  if (def.type === 'number') return mk('number');
  if (def.type === 'string' || def.type === 'enum' || def.type === 'literal') return mk('string');
  const el = listElement(u.base);
  if (el && isScalar(el)) {
    const elChoices = enumValues(el);
    return mk('list', { numeric: defOf(el).type === 'number', split: splittable(el), description: describe(u, path, elChoices, op), ...(elChoices ? { choices: elChoices } : {}) });
  }
  if (el) return mk('json', { repeatable: true });
  if (def.type === 'object' && path.length === 1) {
    const shape = (def.shape ?? {}) as Record<string, Schema>;
    if (Object.values(shape).every((s) => isScalar(unwrap(s).base))) {
      return Object.entries(shape).flatMap(([k, s]) => flagsFor([...path, k], s, op).map((f) => ({ ...f, required: false })));
    }
  }
  return mk('json');
}

/** Every flag an op's input shape yields, in declaration order; `op` (its name) picks op-specific help. */
export function flagsFromShape(shape: Record<string, Schema>, op?: string): FieldFlag[] {
  return Object.entries(shape).flatMap(([name, schema]) => flagsFor([name], schema, op));
}
