/**
 * A profile is a seed system's tool surface (castle, tx, devplanner, ade) declared over the native
 * ops: its tool names, input schemas, texts, result shapes and error format. A profile holds no
 * business logic: every read and write goes through `call.op(...)`, which is the same runOp every
 * other surface uses (same parsing, read-only gate, errors). Adapters (MCP over stdio and HTTP,
 * the in-process agent tools) serve a profile through one loop in ./serve.ts.
 */
import type * as z from 'zod';
import type { CairnError } from '../core/errors.js';
import type { LinkKind } from '../core/link-port.js';
import type { TemplateName } from '../core/model/workflow.js';
import type { AnyOp, OpContext } from '../ops/index.js';

export const PROFILE_NAMES = ['castle', 'tx', 'devplanner', 'ade'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];
/** The MCP server name each seed's hosts know it by (serverInfo.name, and the key in their config files). */
export const PROFILE_SERVER_NAMES: Record<ProfileName, string> = { castle: 'castle-tasks', tx: 'tx', devplanner: 'devplanner', ade: 'principal-ade' };

/** "native", or no name at all, asks for the native tools rather than a profile. */
export function isNativeProfile(name: string | undefined): boolean {
  const n = name?.trim().toLowerCase();
  return !n || n === 'native';
}

export type OpName = AnyOp['name'];
export type OpOutput<N extends OpName> = z.output<Extract<AnyOp, { name: N }>['output']>;

/** What a profile tool answers: its text blocks in order, and structuredContent when it declares an output schema. */
export interface ToolOutput {
  content: string[];
  structured?: Record<string, unknown>;
  /** An error result (isError) in the profile's own format. */
  isError?: boolean;
  /**
   * For an error result, the error itself: MCP adapters put its code and suggestions in the
   * result's `_meta` ("cairn/error"), and in-process tools throw it.
   */
  error?: CairnError;
}

/** A resource's body. */
export interface ResourceOutput {
  text: string;
  mimeType: string;
}

/** What a profile tool or resource is handed when called. */
export interface ProfileCall {
  readonly ctx: OpContext;
  /** Runs a native op with the same parsing, read-only gate and errors as every other surface. */
  op<N extends OpName>(name: N, args: Record<string, unknown>): Promise<OpOutput<N>>;
  /**
   * The project this call works on: the session's default project (its root contains the working
   * directory, or the profile's project-path variable names it), else the only project. With
   * `create`, a workspace with none gets one made from the profile's template (a seed user's
   * first write needs no setup); without it, undefined when there is none.
   */
  project(opts?: { create?: boolean }): Promise<string | undefined>;
  /** The profile's environment (e.g. CASTLE_PROJECT_PATH), as the server was started with. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface ProfileTool {
  name: string;
  title: string;
  /** Model-facing: the seed's own description, kept tight. */
  description: string;
  /** The seed's input schema. Unknown fields are refused like everywhere else in Cairn. */
  input: z.ZodObject;
  /** The seed's declared output (structuredContent), when it declares one. */
  output?: z.ZodObject;
  readOnly: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  /** A tool served only when this toolset is asked for (castle's later write tools: "write"). Default: always served. */
  toolset?: string;
  /**
   * The seed's in-process (Agent SDK) form of this tool, where it differs from its MCP form: a
   * narrower input, and the value its handler returns in place of the structured answer.
   */
  inProcess?: { input?: z.ZodObject; value(structured: any): unknown };
  run(call: ProfileCall, input: any): Promise<ToolOutput>;
}

export interface ProfileResource {
  name: string;
  title: string;
  description: string;
  /** A fixed URI, or a template with {vars} (RFC 6570 level 1). */
  uri: string;
  /** For templates: the concrete resources to list. */
  list?(call: ProfileCall): Promise<Array<{ uri: string; name: string }>>;
  read(call: ProfileCall, vars: Record<string, string>, uri: string): Promise<ResourceOutput>;
}

export interface Profile {
  name: ProfileName;
  /** The MCP server name the seed's clients know (serverInfo.name): PROFILE_SERVER_NAMES[name]. */
  serverName: string;
  instructions?: string;
  /** The workflow template its projects are made from (also accepted by native create_project). */
  template: TemplateName;
  /** Key and name of the project made when a workspace has none and a write needs one. */
  defaultProject: { key: string; name: string };
  /** The environment variable that names the workspace (a Cairn database path), as the seed's hosts set it. */
  workspaceEnv?: string;
  /**
   * What `workspaceEnv` names when it is not a Cairn workspace: the host's own store (Castle's
   * castle.db, a DevPlanner workspace), which the server then serves in place through a link.
   */
  linkKind?: LinkKind;
  /** The environment variable that names the agent's project directory (its project's root), as the seed's hosts set it. */
  projectPathEnv?: string;
  /** Optional toolsets a server can add with --toolsets (e.g. castle's "write"). */
  toolsets?: readonly string[];
  tools: readonly ProfileTool[];
  resources?: readonly ProfileResource[];
  /**
   * The profile's tool for a native one, so error suggestions name tools this server has
   * (get_task → tx_show). A suggestion naming a native tool the profile lacks is dropped.
   */
  toolFor?: Partial<Record<OpName, string>>;
  /** The profile's error result: its own text (and structure) for a CairnError. */
  error(err: CairnError, tool: string): ToolOutput;
}
