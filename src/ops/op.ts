/** The shape of an operation declared once, from which MCP tools, CLI commands and REST routes are generated. */
import type * as z from 'zod';
import type { Context } from '../core/context.js';
import type { ReadOnlyReason } from './write-gate.js';

export const TOOLSETS = ['tasks', 'projects', 'history', 'coordination', 'handoff', 'admin'] as const;
export type Toolset = (typeof TOOLSETS)[number];
export const DEFAULT_TOOLSETS: readonly Toolset[] = ['tasks', 'projects'];

export interface OpContext extends Context {
  /** Project used when an op's `project` argument is omitted (MCP scoping, CLI config). */
  defaultProject?: string;
  /** Refuse write ops with READ_ONLY (write-gate.ts). */
  readOnly?: boolean;
  /** Why the session may only read ('server' by default; 'token' for a token with scope "read"): the refusal says so. */
  readOnlyReason?: ReadOnlyReason;
  /** Run ops on a remote `cairn serve` instead of the local store (src/remote); runOp hands every op to it. */
  remote?: RemoteRunner;
  /**
   * An idempotency key for this call (REST's Idempotency-Key header): the op's write happens once
   * per key; a repeat answers what the first did (runOp, core/services/idempotency.ts).
   */
  idempotencyKey?: string;
  /**
   * May run `admin` ops (API tokens, import and export). Undefined: yes, as for the local CLI and stdio sessions, whose
   * user owns the machine; a server sets it from the caller's token (http/rest-routes.ts).
   */
  mayAdminister?: boolean;
}

/** Sends an op to another Cairn (a remote `cairn serve`'s REST binding for it) and answers its output. */
export interface RemoteRunner {
  /** Where ops go, for messages ("cannot reach …"). */
  readonly url: string;
  /** `raw`: the arguments as the caller gave them (already checked by parseInput here). */
  run(op: Op, raw: Record<string, unknown>, ctx: OpContext): Promise<unknown>;
  /** The server's projects as last listed, for a default project while it is away (undefined: never listed). */
  knownProjects(): Array<{ key: string; root: string | null }> | undefined;
}

export interface Op<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** snake_case verb_noun; the MCP tool name. */
  name: string;
  toolset: Toolset;
  title: string;
  /** When to use it, what it returns, what to call next. Model-facing: keep it tight. */
  description: string;
  input: I;
  output: O;
  /**
   * Parameters that belong to another toolset's workflow (`touches` to coordination): MCP advertises
   * them only when that toolset is served, so the default tool list stays small. Every surface
   * accepts them always.
   */
  paramToolsets?: Readonly<Partial<Record<string, Toolset>>>;
  readOnly: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  /** Administers the server (API tokens; import and export, which reach its files): runs only where `mayAdminister` allows (write-gate.ts). */
  admin?: boolean;
  /** REST binding; path params (":id") are merged into the input. */
  rest: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string };
  run(ctx: OpContext, input: z.output<I>): Promise<z.output<O>>;
}

/** An op as declared: its schemas as functions, built on first use (core/model/lazy.ts). */
export type OpDeclaration<I extends z.ZodObject, O extends z.ZodType> = Omit<Op<I, O>, 'input' | 'output'> & { input: () => I; output: () => O };

/**
 * Declares an operation with its name (as a literal type) and input/output types inferred from the
 * schemas. `input` and `output` are built when first read: a `cairn` command reads one op's input,
 * and its output schema only MCP and the REST API's OpenAPI document use.
 */
export function defineOp<const N extends string, I extends z.ZodObject, O extends z.ZodType>(declared: OpDeclaration<I, O> & { name: N }): Op<I, O> & { name: N } {
  const { input, output, ...op } = declared;
  let inputSchema: I | undefined;
  let outputSchema: O | undefined;
  return Object.defineProperties(op, {
    input: { get: () => (inputSchema ??= input()), enumerable: true },
    output: { get: () => (outputSchema ??= output()), enumerable: true },
  }) as Op<I, O> & { name: N };
}

/** The op's input with `project` filled from the context's default when the caller left it out. */
export function withDefaultProject<T extends { project?: string | undefined; allProjects?: boolean }>(ctx: OpContext, input: T): T {
  if (input.project || input.allProjects || !ctx.defaultProject) return input;
  return { ...input, project: ctx.defaultProject };
}
