/**
 * In-process tools for agent SDKs (seed 002, "Agent SDK Integration"): the tools of any profile, or
 * the native set, bound to one shared workspace, with one database connection however many tools,
 * agents or createTools calls use it. No process is spawned and nothing goes over MCP: each call
 * runs the same op or profile tool the MCP server would, with the same validation and errors.
 *
 * @example Vercel AI SDK
 * import { tool } from 'ai';
 * import { createTools } from 'cairn-tasks/agent';
 * const cairn = createTools({ profile: 'tx', db: '.tx/tasks.db' });
 * const tools = Object.fromEntries(cairn.tools.map((t) => [t.name, tool({ description: t.description, inputSchema: t.inputSchema, execute: t.execute })]));
 *
 * @example Claude Agent SDK
 * import { createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk';
 * import { createTools } from 'cairn-tasks/agent';
 * const cairn = createTools({ profile: 'tx', db: '.tx/tasks.db' });
 * const server = createSdkMcpServer({ name: 'tx', tools: cairn.tools.map((t) => tool(t.name, t.description, t.inputSchema.shape, t.call)) });
 */
import type * as z from 'zod';
import { openForeignSqlite } from '../foreign-sqlite.js';
import { CairnError, toCairnError } from '../core/errors.js';
import { systemClock, type Store } from '../core/ports.js';
import { errorText } from '../ops/error-text.js';
import { explicitProject } from '../ops/default-project.js';
import { OPS, runOp, type Op, type OpContext } from '../ops/index.js';
import { findProfile, runProfileTool, servedTools, type CallSources, type Profile, type ProfileTool, type ToolOutput } from '../profiles/index.js';
import { userRegistry } from '../registry/user-registry.js';
import { findWorkspace, openStore, type WorkspaceLocation } from '../workspace.js';

/** The user's repository registry, for handoffs named by package or repo slug (read only: a library call registers nothing). */
function registryOf(env: NodeJS.ProcessEnv): Pick<OpContext, 'repositories'> {
  const repositories = userRegistry(openStore, env);
  return repositories ? { repositories } : {};
}

/** An MCP-shaped tool result, as the Claude Agent SDK's tool handlers return. */
export interface ToolCallResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface AgentTool {
  name: string;
  description: string;
  /** The tool's zod input schema (an object schema; `.shape` for SDKs that take a raw shape). */
  inputSchema: z.ZodObject;
  readOnly: boolean;
  /**
   * Runs the tool; resolves to its answer (the seed's in-process value where a profile declares
   * one, e.g. tx_ready's TaskWithDeps[]; else the structured answer) and throws the CairnError
   * (message, code, suggestions) on failure.
   */
  execute(args: unknown): Promise<unknown>;
  /** Runs the tool; resolves to an MCP tool result (text blocks, structuredContent, isError), never throws. */
  call(args: unknown): Promise<ToolCallResult>;
}

export interface CreateToolsOptions {
  /** castle, tx, devplanner, … or native (the default). */
  profile?: string;
  /** The workspace (a Cairn database path); default: the profile's variable, CAIRN_DB, then the nearest .cairn/. */
  db?: string;
  /** Share an already open store (e.g. `openCairn().store`) instead of opening one. */
  store?: Store;
  /** Recorded in history and used for claims; default "agent". */
  actor?: string;
  /** The default project for tools that take one. */
  project?: string;
  /** Native: toolsets to include (default every toolset). A profile: its optional toolsets (e.g. castle's "write"). */
  toolsets?: readonly string[];
  readOnly?: boolean;
  /** Where the profile's variables (TX_DB, CASTLE_PROJECT_PATH, …) are read; default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface AgentTools {
  tools: AgentTool[];
  /** The store every tool shares. */
  store: Store;
  /** Closes the store if createTools opened it. */
  close(): Promise<void>;
}

/** One store per workspace path in this process: every createTools on the same workspace shares a connection. */
const shared = new Map<string, { store: Store; users: number }>();

function acquire(location: WorkspaceLocation): { store: Store; release: () => Promise<void> } {
  const { path } = location;
  let entry = shared.get(path);
  if (!entry) shared.set(path, (entry = { store: openStore(path, { watch: true, ...(location.link ? { link: location.link } : {}) }), users: 0 }));
  entry.users++;
  let released = false;
  return {
    store: entry.store,
    release: async () => {
      if (released) return;
      released = true;
      if (--entry!.users === 0) {
        shared.delete(path);
        await entry!.store.close();
      }
    },
  };
}

const asResult = (out: ToolOutput): ToolCallResult => ({
  content: out.content.map((text) => ({ type: 'text' as const, text })),
  ...(out.structured && !out.isError ? { structuredContent: out.structured } : {}),
  ...(out.isError ? { isError: true } : {}),
  ...(out.error ? { _meta: { 'cairn/error': { code: out.error.code, suggestions: out.error.suggestions } } } : {}),
});

/**
 * A profile tool's in-process form: the seed's Agent SDK input and return value where the profile
 * declares them (tx_ready returns TaskWithDeps[]), else the MCP tool's; failures throw the
 * CairnError (message, code, suggestions).
 */
function profileTool(profile: Profile, tool: ProfileTool, sources: CallSources): AgentTool {
  const served = tool.inProcess?.input ? { ...tool, input: tool.inProcess.input } : tool;
  const call = async (args: unknown) => asResult(await runProfileTool(profile, served, sources, args));
  const execute = async (args: unknown) => {
    const out = await runProfileTool(profile, served, sources, args);
    if (out.isError) throw out.error ?? new Error(out.content.join('\n'));
    if (!out.structured) return out.content.join('\n');
    return tool.inProcess ? tool.inProcess.value(out.structured) : out.structured;
  };
  return { name: tool.name, description: tool.description, inputSchema: served.input, readOnly: tool.readOnly, call, execute };
}

/** The tools of a profile (or the native set) over one shared workspace. */
export function createTools(opts: CreateToolsOptions = {}): AgentTools {
  const env = opts.env ?? process.env;
  const profile = findProfile(opts.profile);
  const held = opts.store
    ? { store: opts.store, release: async () => undefined }
    : acquire(findWorkspace({ db: opts.db, env, ...(profile?.workspaceEnv ? { profileEnv: profile.workspaceEnv } : {}), ...(profile?.linkKind ? { profileLink: profile.linkKind } : {}) }));
  const project = explicitProject(opts.project);
  const ctx: OpContext = {
    store: held.store,
    clock: systemClock,
    actor: opts.actor ?? 'agent',
    openWorkspace: openStore,
    openForeignSqlite,
    ...registryOf(env),
    ...(project ? { defaultProject: project } : {}),
    ...(opts.readOnly ? { readOnly: true } : {}),
  };
  const context = async () => ctx;
  let tools: AgentTool[];
  if (profile) {
    const profileEnv = Object.fromEntries([profile.workspaceEnv, profile.projectPathEnv].filter((k): k is string => !!k).map((k) => [k, env[k]]));
    tools = servedTools(profile, opts.toolsets ?? [], opts.readOnly === true).map((tool) => profileTool(profile, tool, { context, env: profileEnv }));
  } else {
    const sets = opts.toolsets ?? null;
    tools = (OPS as readonly Op[])
      .filter((op) => (!sets || sets.includes(op.toolset)) && (!opts.readOnly || op.readOnly))
      .map((op) => {
        const call = async (args: unknown): Promise<ToolCallResult> => {
          try {
            const out = (await runOp(op, ctx, args)) as Record<string, unknown>;
            return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
          } catch (err) {
            return { content: [{ type: 'text', text: errorText(toCairnError(err)) }], isError: true };
          }
        };
        const execute = async (args: unknown): Promise<unknown> => {
          try {
            return await runOp(op, ctx, args);
          } catch (err) {
            throw toCairnError(err);
          }
        };
        return { name: op.name, description: op.description, inputSchema: op.input, readOnly: op.readOnly, call, execute };
      });
  }
  return { tools, store: held.store, close: held.release };
}

export { CairnError };
