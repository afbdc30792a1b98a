/**
 * Registers ops as MCP tools: one loop, no per-tool code. The input schema is advertised but not
 * enforced by the SDK, so run-op parses it and a bad argument begins with VALIDATION_ERROR naming
 * the field (the SDK's own message would begin "Input validation error").
 */
import type { McpServer, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { toCairnError, type CairnError } from '../core/errors.js';
import { runOp, type Op, type OpContext, type Toolset } from '../ops/index.js';
import { validationError } from '../ops/run-op.js';
import { getTaskOp } from '../ops/task-ops.js';
import { detailSchemas, FieldsArg, listedDetails, listShapeOf, takeFields, toRows, type FieldName } from './detail-fields.js';
import { compactJsonSchema, compactOutputSchema } from './compact-schema.js';
import { shapeCheck } from './shape-check.js';
import { errorResult, okResult } from './tool-result.js';
import { OUTBOX_OPS } from '../remote/outbox.js';
import { viewMetaOf } from './apps.js';
import type { ListedTool } from './tool-list.js';

/** How a schema is advertised: as a profile's seed wrote it, a native tool's lean input, or a native output (compact-schema.ts). */
export type Advertised = 'seed' | 'input' | 'output' | 'output-task-core';

type Props = StandardSchemaWithJSON['~standard'];
type JsonSchema = ReturnType<Props['jsonSchema']['input']>;
type ConvertOptions = Parameters<Props['jsonSchema']['input']>[0];

const shrink: Record<Advertised, { input: (s: JsonSchema) => JsonSchema; output: (s: JsonSchema) => JsonSchema }> = {
  seed: { input: (s) => compactJsonSchema(s), output: (s) => s },
  input: { input: (s) => compactJsonSchema(s, { lean: true }), output: (s) => s },
  output: { input: (s) => s, output: (s) => compactOutputSchema(s) },
  'output-task-core': { input: (s) => s, output: (s) => compactOutputSchema(s, { taskCore: true }) },
};

/**
 * The schema as the client sees it, with validation left to us: run-op parses inputs, and
 * `conform` parses outputs once (the SDK would parse each result a second time).
 */
export function advertiseOnly(schema: z.ZodType, as: Advertised = 'seed'): StandardSchemaWithJSON {
  let byMode = advertised.get(schema);
  if (!byMode) advertised.set(schema, (byMode = new Map()));
  const cached = byMode.get(as);
  if (cached) return cached;
  // zod 4 implements Standard JSON Schema: its ~standard converts as well as validates.
  const std: Props = schema['~standard'];
  const jsonSchema = {
    ...std.jsonSchema,
    input: memoByOptions((o) => shrink[as].input(std.jsonSchema.input(o))),
    output: memoByOptions((o) => shrink[as].output(std.jsonSchema.output(o))),
  };
  const out: StandardSchemaWithJSON = { '~standard': { ...std, jsonSchema, validate: (value: unknown) => ({ value }) } };
  byMode.set(as, out);
  return out;
}

// Over HTTP a server (and so every tool registration) is built per request; converting zod to JSON
// Schema each time would be most of a 2026 call's cost, and the schemas never change at run time.
const advertised = new WeakMap<z.ZodType, Map<Advertised, StandardSchemaWithJSON>>();

function memoByOptions(convert: (o: ConvertOptions) => JsonSchema): (o: ConvertOptions) => JsonSchema {
  const byOptions = new Map<string, JsonSchema>();
  return (o) => {
    const key = JSON.stringify(o ?? null);
    let out = byOptions.get(key);
    if (!out) byOptions.set(key, (out = convert(o)));
    return out;
  };
}

export function annotationsOf(op: Op): ToolAnnotations {
  return {
    title: op.title,
    readOnlyHint: op.readOnly,
    // The spec defaults destructiveHint to true for writes; say false unless the op really removes something.
    ...(op.readOnly ? {} : { destructiveHint: op.destructive === true }),
    idempotentHint: op.idempotent === true,
    openWorldHint: false,
  };
}

export interface ToolHooks {
  /** The op context for this call (default project resolved, actor, read-only). */
  context(): Promise<OpContext>;
  /** Wraps each call so shutdown can wait for writes in flight. */
  /** Runs a call of `tool` (waited for at shutdown, counted for /metrics). */
  track<T>(tool: string, work: () => Promise<T>): Promise<T>;
  /** Bugs (INTERNAL) are reported here with their stack; callers see only the code and message. */
  onInternal(err: unknown): void;
  /** A refusal for tools registered but not served (a toolset left out), answered before anything runs. */
  refuse?(op: Op, reqCtx: unknown): CairnError | undefined;
  /** The toolsets served: a parameter of another toolset is not advertised (Op.paramToolsets). */
  toolsets: readonly Toolset[];
  /** Asks the person before a call that needs approval (approvals.ts): an input_required result to return, or undefined to go ahead. */
  approve?(tool: string, args: Record<string, unknown>, reqCtx: unknown, ctx: OpContext): Promise<unknown>;
  /** Ops run on a remote server (`--remote`): writes that wait in the outbox answer a receipt, which their output schema then allows. */
  remote?: boolean;
}

/**
 * A write kept in the outbox answers `{persistedOffline, outboxId, message}` instead of its output:
 * with a remote, such ops advertise their output's fields as optional beside those three (still an
 * object schema, as MCP requires). Local servers advertise the op's own schema, unchanged.
 */
function withReceipt(output: z.ZodType): z.ZodType {
  const shape = (output as Partial<z.ZodObject>).shape;
  if (!shape || 'persistedOffline' in shape) return output;
  return (output as z.ZodObject).partial().extend({ persistedOffline: z.boolean().optional(), outboxId: z.string().optional(), message: z.string().optional() });
}
const receiptSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** The tool's advertised schemas: the op's own, or for ops that list task summaries, `fields` and rows (detail-fields.ts). */
function schemasOf(op: Op) {
  let s = schemaCache.get(op);
  if (!s) {
    const shape = listShapeOf(op);
    s = { shape, ...(shape ? detailSchemas(op, shape) : { input: op.input, output: op.output }) };
    schemaCache.set(op, s);
  }
  return s;
}
const schemaCache = new WeakMap<Op, { shape: ReturnType<typeof listShapeOf>; input: z.ZodType; output: z.ZodType }>();

/**
 * structuredContent exactly as the advertised outputSchema says: the JSON Schema forbids extra keys,
 * and clients (the v1 SDK client, for one) refuse a result that carries any. A mismatch is a bug.
 * A result that already has the schema's shape (nearly all) is sent as it is (shape-check.ts).
 */
function conform(schema: z.ZodType, out: unknown): unknown {
  if (shapeCheck(schema)?.(out)) return out;
  const parsed = schema.safeParse(out);
  if (parsed.success) return parsed.data;
  throw new Error(`result does not match the output schema: ${z.prettifyError(parsed.error)}`);
}

/** Parses the optional `fields` argument with the same VALIDATION_ERROR wording as every other field. */
function parseFields(op: Op, raw: unknown): FieldName[] {
  if (raw === undefined) return [];
  const parsed = FieldsArg.safeParse(raw);
  if (!parsed.success) throw validationError(op, new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: ['fields', ...i.path] }))));
  return parsed.data ?? [];
}

/** The parameters not advertised: those of toolsets not served (they are still accepted). */
function hiddenParams(op: Op, served: readonly Toolset[]): string[] {
  return Object.entries(op.paramToolsets ?? {})
    .filter(([, t]) => !served.includes(t!))
    .map(([k]) => k);
}

/** The input as advertised: without the parameters of toolsets not served (they are still accepted). */
function advertisedInput(op: Op, input: z.ZodType, served: readonly Toolset[]): z.ZodType {
  const hidden = hiddenParams(op, served);
  if (!hidden.length) return input;
  const key = `${op.name}:${hidden.join(',')}`;
  let schema = narrowed.get(key);
  if (!schema) narrowed.set(key, (schema = (input as z.ZodObject).omit(Object.fromEntries(hidden.map((k) => [k, true])) as Record<string, true> & Record<number, never>)));
  return schema;
}
const narrowed = new Map<string, z.ZodType>();

/**
 * An advertised schema built on first use: the SDK checks at registration that a schema has a
 * `validate`, and converts it only when it lists the tool. So a tools/list answered from saved
 * entries (tool-list.ts) and a call build the zod schemas of the tools they touch, not of every tool.
 */
function lazyAdvertised(build: () => StandardSchemaWithJSON): StandardSchemaWithJSON {
  let real: StandardSchemaWithJSON | undefined;
  const std = () => (real ??= build())['~standard'];
  return {
    '~standard': {
      version: 1,
      vendor: 'zod',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: (o) => std().jsonSchema.input(o), output: (o) => std().jsonSchema.output(o) },
    },
  };
}

/** Registers each op as a tool; answers what each lists (tool-list.ts builds tools/list from it). */
export function registerOpTools(server: McpServer, ops: readonly Op[], hooks: ToolHooks): ListedTool[] {
  const listed: ListedTool[] = [];
  for (const op of ops) {
    const receipt = hooks.remote === true && !op.readOnly && OUTBOX_OPS.has(op.name);
    let built: { shape: ReturnType<typeof listShapeOf>; input: z.ZodType; output: z.ZodType } | undefined;
    const schemas = () => {
      if (built) return built;
      const own = schemasOf(op);
      if (receipt && !receiptSchemas.has(own.output)) receiptSchemas.set(own.output, withReceipt(own.output));
      return (built = { ...own, output: receipt ? receiptSchemas.get(own.output)! : own.output });
    };
    const config = {
      title: op.title,
      description: op.description,
      inputSchema: lazyAdvertised(() => advertiseOnly(advertisedInput(op, schemas().input, hooks.toolsets), 'input')),
      outputSchema: lazyAdvertised(() => advertiseOnly(schemas().output, op.readOnly ? 'output' : 'output-task-core')),
      annotations: annotationsOf(op),
      ...(viewMetaOf(op.name) ? { _meta: viewMetaOf(op.name) } : {}),
    };
    listed.push({ name: op.name, ...config, key: `${op.name}|${hiddenParams(op, hooks.toolsets).join(',')}|${receipt ? 'receipt' : ''}` });
    server.registerTool(op.name, config, (async (raw: unknown, reqCtx: unknown) =>
      hooks.track(op.name, async () => {
        try {
          const { shape, output } = schemas();
          const refusal = hooks.refuse?.(op, reqCtx);
          if (refusal) return errorResult(refusal);
          const ctx = await hooks.context();
          const { args, fields } = shape ? takeFields(raw) : { args: raw, fields: undefined };
          const ask = await hooks.approve?.(op.name, (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>, reqCtx, ctx);
          if (ask) return ask;
          const wanted = shape ? parseFields(op, fields) : [];
          const include = listedDetails(wanted);
          let out: unknown = await runOp(op, ctx, include.length && typeof args === 'object' && args !== null ? { ...args, include } : args);
          if (shape) out = await toRows(out, shape, wanted, async (id) => (await runOp(getTaskOp, ctx, { id })).task);
          const rawArgs = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
          // Rows come from toRow(), whose literal TypeScript checks against the schema's exact
          // keys; re-parsing a page of them with zod would be most of a list call's allocations (and
          // of its garbage collections). Rows with added fields and every other result are parsed.
          const structured = shape && !wanted.length ? out : conform(output, out);
          return okResult({ tool: op.name, args: rawArgs, defaultProject: ctx.defaultProject }, structured);
        } catch (err) {
          const e = toCairnError(err);
          if (e.code === 'INTERNAL') hooks.onInternal(e.cause ?? err);
          return errorResult(e);
        }
      })) as never);
  }
  return listed;
}
