/** The one entry every surface calls: strict input parsing (errors name the field), read-only gate, error mapping. */
import type * as z from 'zod';
import { CairnError, toCairnError } from '../core/errors.js';
import { closest } from '../core/rules/suggest.js';
import { isReplay, withIdempotency } from '../core/services/idempotency.js';
import { getTask } from '../core/services/tasks.js';
import type { Op, OpContext } from './op.js';
import { gateRefusal } from './write-gate.js';

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length ? issue.path.map(String).join('.') : '(arguments)';
  return `${path}: ${issue.message}`;
}

/** Turns a zod failure into VALIDATION_ERROR naming each bad field and what it expects. */
export function validationError(op: Pick<Op, 'name'>, error: z.ZodError): CairnError {
  const issues = error.issues.slice(0, 5).map(describeIssue);
  return new CairnError('VALIDATION_ERROR', `Invalid arguments for ${op.name}: ${issues.join('; ')}. Nothing was changed.`, {
    suggestions: [`Fix the field${issues.length > 1 ? 's' : ''} above and call ${op.name} again`],
    details: { issues: error.issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code })) },
  });
}

/** Unknown fields are refused rather than silently ignored, with the nearest known name. */
function rejectUnknownKeys(op: Op, raw: Record<string, unknown>): void {
  const known = Object.keys(op.input.shape);
  // A "__proto__" key that some parser assigned rather than defined left no own key, only a prototype.
  const proto = Object.getPrototypeOf(raw) as unknown;
  const inherited = proto !== Object.prototype && proto !== null ? ['__proto__'] : [];
  for (const key of [...Object.keys(raw), ...inherited]) {
    if (known.includes(key)) continue;
    const near = closest(key, known, 1);
    throw new CairnError('VALIDATION_ERROR', `Invalid arguments for ${op.name}: unknown field "${key}".${near.length ? ` Did you mean "${near[0]}"?` : ''} Known fields: ${known.join(', ')}.`, {
      suggestions: near.length ? [`Rename "${key}" to "${near[0]}"`] : [`Remove "${key}"`],
    });
  }
}

export function parseInput<O extends Op>(op: O, raw: unknown): z.output<O['input']> {
  const value = raw === undefined || raw === null ? {} : raw;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new CairnError('VALIDATION_ERROR', `Invalid arguments for ${op.name}: expected an object of named arguments.`);
  }
  rejectUnknownKeys(op, value as Record<string, unknown>);
  const parsed = op.input.safeParse(value);
  if (!parsed.success) throw validationError(op, parsed.error);
  return wellFormed(parsed.data) as z.output<O['input']>;
}

type StringOps = { isWellFormed(): boolean; toWellFormed(): string };

/**
 * Text as every engine can store it: lone UTF-16 surrogates (legal in a JSON string) replaced by
 * U+FFFD, as UTF-8 storage would, and NUL characters too, which PostgreSQL's text cannot hold. An
 * answer built from the input (create_task's) then says exactly what get_task reads back, on both
 * engines. Returns the value itself when nothing needs replacing, as nearly always.
 */
export function wellFormed(v: unknown): unknown {
  if (typeof v === 'string') {
    const w = (v as unknown as StringOps).isWellFormed() ? v : (v as unknown as StringOps).toWellFormed();
    return w.includes('\u0000') ? w.replaceAll('\u0000', '\ufffd') : w;
  }
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const y = wellFormed(x);
      if (y !== x) (out ??= [...v])[i] = y;
    });
    return out ?? v;
  }
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    let out: Record<string, unknown> | undefined;
    for (const [k, x] of Object.entries(v)) {
      const y = wellFormed(x);
      if (y !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = y;
    }
    return out ?? v;
  }
  return v;
}

/** Runs an op: gate (read-only, administration), parse, execute. Always throws CairnError (unknown throws become INTERNAL). */
export async function runOp<O extends Op>(op: O, ctx: OpContext, raw: unknown): Promise<z.output<O['output']>> {
  try {
    const refusal = gateRefusal(op, { readOnly: ctx.readOnly, readOnlyReason: ctx.readOnlyReason, mayAdminister: ctx.mayAdminister });
    if (refusal) throw refusal;
    const input = parseInput(op, raw);
    if (ctx.remote) return (await ctx.remote.run(op, (raw ?? {}) as Record<string, unknown>, ctx)) as z.output<O['output']>;
    if (ctx.idempotencyKey && !op.readOnly) return (await runOnce(op, ctx, input, ctx.idempotencyKey)) as z.output<O['output']>;
    return (await op.run(ctx, input)) as z.output<O['output']>;
  } catch (err) {
    throw toCairnError(err);
  }
}

/**
 * A write that happens once per idempotency key. Ops that take `idempotencyKey` themselves get it as
 * input; for the others the key is recorded in the op's first write transaction, and a repeat answers
 * the task that first write touched, as it is now (with `nowReady: []` where the op reports it).
 */
async function runOnce(op: Op, ctx: OpContext, input: Record<string, unknown>, key: string): Promise<unknown> {
  const { idempotencyKey: _, ...rest } = ctx;
  if ('idempotencyKey' in op.input.shape) return op.run(rest, { ...input, idempotencyKey: input.idempotencyKey ?? key });
  const out = await withIdempotency(rest, { key, op: op.name, request: input }, (c) => op.run({ ...rest, store: c.store }, input));
  if (!isReplay(out)) return out;
  const task = out.record.taskUid ? await getTask(rest, { id: out.record.taskUid }).catch(() => undefined) : undefined;
  const candidate = { ...(task ? { task } : {}), ...('nowReady' in ((op.output as Partial<z.ZodObject>).shape ?? {}) ? { nowReady: [] } : {}) };
  const parsed = op.output.safeParse(candidate);
  return parsed.success ? parsed.data : { replayed: true, ...candidate };
}
