/** Builds a commander command from a binding: positionals and flags derived from the op's input schema. */
import { Option, type Command } from 'commander';
import type { Op } from '../ops/index.js';
import type { Binding } from './bindings.js';
import { addChecklistFlags, CHECKLIST_FLAG_LABEL } from './checklist-flags.js';
import { appendJson, appendList, parseJson, parseNumber } from './parse-values.js';
import { flagsFromShape, type FieldFlag } from './schema-flags.js';

/** A derived option: the commander attribute it lands in, and the op field it feeds. */
export interface BoundOption {
  attr: string;
  field: FieldFlag;
  name: string;
}

export interface BoundCommand {
  binding: Binding;
  op: Op;
  positionals: Array<{ field: FieldFlag; variadic: boolean }>;
  options: BoundOption[];
  /** The ordered checklist ops, for `check`. */
  customOps?: () => unknown[];
  /** Op field → how this command spells it, for error messages. */
  labels: Map<string, string>;
}

const argName = (spec: string): string => spec.replace(/^[<[]|\.\.\.|[>\]]$/g, '');

function parserFor(f: FieldFlag, name: string): ((text: string, prev: unknown) => unknown) | undefined {
  if (f.kind === 'number') return (text) => parseNumber(text);
  if (f.kind === 'list') return (text, prev) => appendList(text, prev, f);
  if (f.kind === 'json') return f.repeatable ? (text, prev) => appendJson(text, prev, name) : (text) => parseJson(text, name);
  return undefined;
}

function optionFor(f: FieldFlag, name: string): Option[] {
  const desc = f.description + (f.kind === 'list' ? (f.split ? ' (repeatable or comma-separated)' : ' (repeatable)') : f.kind === 'json' ? ' (JSON)' : '');
  if (f.kind === 'boolean') {
    const on = new Option(`--${name}`, desc);
    const off = new Option(`--no-${name}`, f.offDescription ?? `Turn off --${name}`);
    // Show the switch that changes the default; keep the other for explicitness in scripts.
    return f.defaultValue === true ? [on.hideHelp(), off] : [on, off.hideHelp()];
  }
  const placeholder = f.kind === 'number' ? 'n' : f.kind === 'json' ? 'json' : f.kind === 'list' ? 'items' : 'value';
  const opt = new Option(`--${name} <${placeholder}>`, desc);
  const parse = parserFor(f, name);
  if (parse) opt.argParser(parse);
  const out = [opt];
  if (f.nullable) out.push(new Option(`--no-${name}`, `clear ${name} (sets it to null)`));
  return out;
}

/**
 * Adds the binding's positionals and flags to `cmd` and returns how to read them back. `taken`:
 * flags `cmd` already has (from the op an alternate shares the command with), read but not re-added.
 */
export function bindCommand(cmd: Command, binding: Binding, op: Op, taken?: ReadonlySet<string>): BoundCommand {
  const fields = flagsFromShape(op.input.shape as never, op.name).filter((f) => !binding.omit?.includes(f.path[0]!) && !(binding.fixed && f.path[0]! in binding.fixed));
  const byField = new Map(fields.map((f) => [f.path.join('.'), f]));
  const bound: BoundCommand = { binding, op, positionals: [], options: [], labels: new Map() };
  for (const spec of binding.args ?? []) {
    const field = byField.get(argName(spec));
    if (!field) throw new Error(`Binding "${binding.command}": ${op.name} has no field "${argName(spec)}"`);
    cmd.argument(spec, field.description);
    bound.positionals.push({ field, variadic: spec.includes('...') });
    bound.labels.set(field.path[0]!, spec);
  }
  const positional = new Set(bound.positionals.map((p) => p.field.path.join('.')));
  for (const f of fields) {
    const key = f.path.join('.');
    if (positional.has(key)) continue;
    const name = binding.flags?.[key] ?? f.flag;
    for (const opt of optionFor(f, name)) {
      if (!taken?.has(opt.long ?? '')) cmd.addOption(opt);
      bound.options.push({ attr: opt.attributeName(), field: f, name });
    }
    bound.labels.set(key, `--${name}`);
  }
  if (binding.editable) cmd.option('--edit', `write the ${binding.editable.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)} in $VISUAL or $EDITOR (starts from the current text)`);
  if (binding.fields) cmd.option('--fields <names>', 'task fields to show as columns, e.g. id,title,status,assignee,labels,updatedAt,state (with --json: the keys kept per task)');
  if (binding.custom === 'checklist') {
    bound.customOps = addChecklistFlags(cmd);
    bound.labels.set('ops', CHECKLIST_FLAG_LABEL);
  }
  return bound;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  if (path.length === 1) target[path[0]!] = value;
  else target[path[0]!] = { ...((target[path[0]!] as object | undefined) ?? {}), [path[1]!]: value };
}

/** The op's raw input from what commander parsed; validation is left to the op. */
export function collectInput(b: BoundCommand, args: unknown[], opts: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...(b.binding.fixed ?? {}) };
  b.positionals.forEach(({ field, variadic }, i) => {
    const value = args[i];
    if (value === undefined) return;
    // Words of a variadic list field are its items (`cairn paths a b`); of a text field, one text.
    if (variadic && Array.isArray(value) && field.kind === 'list') return setPath(input, field.path, value.map(String));
    const text = variadic && Array.isArray(value) ? value.join(' ') : String(value);
    setPath(input, field.path, field.kind === 'number' ? parseNumber(text) : field.kind === 'list' ? appendList(text, [], field) : text);
  });
  for (const { attr, field } of b.options) {
    const value = opts[attr];
    if (value === undefined) continue;
    // `--no-assignee` arrives as false: for a nullable non-boolean field it means null.
    setPath(input, field.path, value === false && field.kind !== 'boolean' ? null : value);
  }
  if (b.customOps) input.ops = b.customOps();
  return input;
}
