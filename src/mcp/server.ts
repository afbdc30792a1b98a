/**
 * The Cairn MCP server: one McpServer built from the ops list for the chosen toolsets and
 * read-only mode, plus resources, prompts, subscriptions and project scoping.
 *
 * For other adapters (HTTP mounts this on /mcp):
 * - `buildMcpServer(opts, reqCtx)` makes one instance; call it per stdio connection or per HTTP
 *   request (`createMcpHandler(ctx => buildMcpServer(opts, ctx))`). Pass the same `store` each time.
 * - Push notifications from the cross-process change feed with `forwardChanges(feed, sink)`
 *   (re-exported here): `const feed = await followChanges(store); forwardChanges(feed, handler.notify)`
 *   — `handler.notify` of createMcpHandler already has the `ChangeSink` shape. On stdio,
 *   `stdioSink(server, era)` is the sink (it honours 2025 resources/subscribe; 2026 listen filtering
 *   is done by serveStdio's router).
 */
import { McpServer, type CallToolResult, type McpRequestContext } from '@modelcontextprotocol/server';
import { toCairnError } from '../core/errors.js';
import type { Store } from '../core/ports.js';
import { systemClock } from '../core/ports.js';
import { rootedProjects } from '../ops/default-project.js';
import { gateRefusal, TOOLSETS, type OpContext, type Toolset } from '../ops/index.js';
import type { Profile } from '../profiles/profile.js';
import { servedTools } from '../profiles/serve.js';
import { registerProfileResources, registerProfileTools } from './profile-tools.js';
import { INSTRUCTIONS, NATIVE_CAPABILITIES, SERVER_NAME, SERVER_VERSION } from './early-initialize.js';
import { noJsonSchemaValidator } from './json-schema-validator.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerViews, rendersApps, VIEW_ONLY_OPS, viewOnlyEntry } from './apps.js';
import { approvalGate } from './approvals.js';
import { ProjectScope, rootPaths } from './scope.js';
import type { ChangeSink } from './subscriptions.js';
import { serveToolList, type SavedToolEntries } from './tool-list.js';
import { registerOpTools } from './tools.js';
import { selectOps } from './toolsets.js';

export { forwardChanges, changesOf, type ChangeSink } from './subscriptions.js';
export { parseToolsets, selectOps } from './toolsets.js';

export { SERVER_NAME, SERVER_VERSION } from './early-initialize.js';

export interface BuildMcpServerOptions {
  store: Store;
  /** Recorded in history and used for claims. */
  actor: string;
  /** Who acts on the actor's behalf (an admin token over HTTP), recorded beside it in history. */
  via?: string;
  /** False when the caller may not take over another's live claim (a token that acts only as itself). */
  mayTakeOver?: boolean;
  toolsets: Toolset[];
  /** Write tools are neither listed nor callable. */
  readOnly: boolean;
  /** The explicit project (--project): wins over client roots, env and cwd. */
  defaultProject?: string;
  /** CAIRN_PROJECT: used when neither the option nor the client's roots name a project. */
  envProject?: string;
  /** The working directory: the project whose root contains it is the last-resort default. */
  cwd?: string;
  /** Where diagnostics go; stdout is the protocol, so the default is stderr. */
  log?: (level: 'debug' | 'info' | 'warning' | 'error', message: string) => void;
  /** Lets the caller wait for tool calls in flight (clean shutdown with no lost write). */
  track?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Told of every tool call once answered: `ok`, or the error code of a tool error (for /metrics). */
  onToolCall?: (tool: string, outcome: string, ms: number) => void;
  /** Serve a seed's surface instead of the native tools (src/profiles): its tools, resources, names and errors. */
  profile?: { profile: Profile; toolsets: readonly string[]; env: Readonly<Record<string, string | undefined>> };
  /**
   * The client's MCP roots as paths once known, or undefined when it offers none (no roots
   * capability, a 2026 client, a failed roots/list): how `cairn mcp` started outside any workspace finds one.
   */
  onRoots?: (paths: string[] | undefined) => void;
  /** Other workspaces (handoffs to other repositories), a remote server to run every op on (`--remote`), and whether an HTTP caller may manage tokens. */
  services?: Pick<OpContext, 'openWorkspace' | 'openForeignSqlite' | 'remote' | 'repositories' | 'keyScope' | 'keyRetentionDays' | 'mayAdminister'>;
  /**
   * Settles once the change feed follows the workspace: a subscription is acknowledged only then, so
   * a change made after it (a file a linked source's owner edits, a commit elsewhere) is heard.
   */
  feedReady?: Promise<unknown>;
  /** The native tools' tools/list entries saved by an earlier run of the same build (`cairn mcp`; tool-list.ts). */
  toolEntries?: SavedToolEntries;
}

const stderrLog = (level: string, message: string): void => {
  process.stderr.write(`[cairn mcp] ${level}: ${message}\n`);
};

/** 2025 clients' resources/subscribe choices, per instance. */
const subscriptions = new WeakMap<McpServer, Set<string>>();

/** Sends change notifications to one stdio connection: 2025 clients only for URIs they subscribed to. */
export function stdioSink(server: McpServer, era: 'legacy' | 'modern'): ChangeSink {
  const quiet = (p: Promise<unknown> | void) => void Promise.resolve(p).catch(() => undefined);
  return {
    resourceUpdated(uri) {
      if (!server.isConnected()) return;
      if (era === 'modern' || subscriptions.get(server)?.has(uri)) quiet(server.server.sendResourceUpdated({ uri }));
    },
    resourcesChanged() {
      if (!server.isConnected()) return;
      // Through the underlying Server, whose promise can be caught: McpServer's wrapper drops it, and a
      // surface without resources (a profile's) rejects the notification as an unsupported capability.
      try {
        quiet(server.server.sendResourceListChanged());
      } catch {
        // Refused before sending: nothing to tell this client.
      }
    },
    wantsUpdates: () => server.isConnected() && (era === 'modern' || (subscriptions.get(server)?.size ?? 0) > 0),
  };
}

export function buildMcpServer(opts: BuildMcpServerOptions, reqCtx?: McpRequestContext): McpServer {
  const era = reqCtx?.era ?? 'legacy';
  const log = opts.log ?? stderrLog;
  const profile = opts.profile?.profile;
  const server = new McpServer(
    { name: profile?.serverName ?? SERVER_NAME, title: profile ? `${profile.serverName} (Cairn)` : 'Cairn', version: SERVER_VERSION },
    {
      capabilities: profile ? { tools: { listChanged: false }, ...(profile.resources?.length ? { resources: { listChanged: false } } : {}), logging: {} } : structuredClone(NATIVE_CAPABILITIES),
      instructions: profile ? (profile.instructions ?? '') : INSTRUCTIONS,
      jsonSchemaValidator: noJsonSchemaValidator,
    },
  );
  const remote = opts.services?.remote;
  // Where projects are read for scoping and prompts: the local store, or the remote server (services.remote).
  const baseCtx: OpContext = { store: opts.store, clock: systemClock, actor: opts.actor, ...opts.services };
  const scope = new ProjectScope(baseCtx, { explicit: opts.defaultProject, env: opts.envProject, cwd: opts.cwd });
  let rootsPending: Promise<void> | undefined;
  // Where the agent works: its first root, else the server's working directory (a claim records the git checkout there).
  let workdir = opts.cwd;
  const context = async (): Promise<OpContext> => {
    if (rootsPending !== undefined) await rootsPending;
    const defaultProject = await scope.current();
    return {
      store: opts.store,
      clock: systemClock,
      actor: opts.actor,
      ...(workdir ? { workdir } : {}),
      ...(opts.via ? { via: opts.via } : {}),
      ...(opts.mayTakeOver === false ? { mayTakeOver: false } : {}),
      readOnly: opts.readOnly,
      ...(defaultProject ? { defaultProject } : {}),
      ...opts.services,
    };
  };
  const onInternal = (err: unknown): void => {
    log('error', err instanceof Error ? (err.stack ?? err.message) : String(err));
    if (era === 'legacy') void server.sendLoggingMessage({ level: 'error', logger: 'cairn', data: String(err) }).catch(() => undefined);
  };
  const inFlight: <T>(work: () => Promise<T>) => Promise<T> = opts.track ?? ((work) => work());
  const track = opts.onToolCall ? measured(inFlight, opts.onToolCall) : <T>(_tool: string, work: () => Promise<T>) => inFlight(work);

  if (opts.profile) {
    const hooks = { context, env: opts.profile.env, track, onInternal };
    const { profile: p, toolsets } = opts.profile;
    const listed = registerProfileTools(server, p, toolsets, hooks);
    const served = new Set(servedTools(p, toolsets, opts.readOnly).map((t) => t.name));
    serveToolList(server, listed, (name) => (served.has(name) ? 'listed' : 'hidden'), viewOnlyEntry);
    registerProfileResources(server, p, hooks);
  } else {
    // Every tool is registered and only the served ones are listed (tool-list.ts): a call to another
    // (an agent that remembers the name) answers why, READ_ONLY for writes on a read-only server,
    // FORBIDDEN naming the toolset otherwise.
    const served = new Set(selectOps(opts.toolsets, opts.readOnly).map((op) => op.name));
    // What a view may call beyond the served toolsets (apps.ts): a read-only server lists none of its
    // writes, and refuses them as writes (READ_ONLY), not as another toolset's.
    const viewOnly = (op: { name: string }) => VIEW_ONLY_OPS.has(op.name) && !served.has(op.name);
    const forViews = new Set(
      selectOps(TOOLSETS, opts.readOnly)
        .filter(viewOnly)
        .map((op) => op.name),
    );
    const listed = registerOpTools(server, selectOps(TOOLSETS, false), {
      refuse: (op, reqCtx) => gateRefusal(op, { readOnly: opts.readOnly, served: viewOnly(op) && rendersApps(server, reqCtx) ? TOOLSETS : opts.toolsets }),
      toolsets: opts.toolsets,
      approve: (tool, args, reqCtx, ctx) => approvalGate(server, tool, args, reqCtx, ctx),
      context,
      track,
      onInternal,
      remote: remote !== undefined,
    });
    serveToolList(server, listed, (name, reqCtx) => (served.has(name) ? 'listed' : forViews.has(name) && rendersApps(server, reqCtx) ? 'view-only' : 'hidden'), viewOnlyEntry, opts.toolEntries);
    registerResources(server, context);
    registerViews(server);
    registerPrompts(server, async () => (await rootedProjects(baseCtx)).projects.map((p) => p.key));
  }

  if (era === 'legacy' && !profile) {
    // McpServer installs no subscribe handlers; 2026 clients use subscriptions/listen, which serveStdio routes.
    const subs = new Set<string>();
    subscriptions.set(server, subs);
    server.server.setRequestHandler('resources/subscribe', async (r) => {
      subs.add(r.params.uri);
      await opts.feedReady?.catch(() => undefined);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', async (r) => {
      subs.delete(r.params.uri);
      return {};
    });
  }
  if (era === 'legacy') {
    // Roots are optional: ask only when the client declares them (an explicit project still wins in scope.ts,
    // but the roots may be what finds the workspace). A call made while they are being fetched waits (at
    // most the 2 s timeout), so scoping is not racy.
    const fetchRoots = (): void => {
      if (!server.server.getClientCapabilities()?.roots) return opts.onRoots?.(undefined);
      rootsPending = (async () => {
        try {
          const { roots } = await server.server.listRoots(undefined, { timeout: 2000 });
          const paths = rootPaths(roots);
          scope.setRoots(paths);
          if (paths[0]) workdir = paths[0];
          opts.onRoots?.(paths);
        } catch (err) {
          log('warning', `roots/list failed, scoping falls back to CAIRN_PROJECT / the working directory: ${toCairnError(err).message}`);
          opts.onRoots?.(undefined);
        } finally {
          rootsPending = undefined;
        }
      })();
    };
    server.server.oninitialized = fetchRoots;
    server.server.setNotificationHandler('notifications/roots/list_changed', fetchRoots);
  } else {
    opts.onRoots?.(undefined); // 2026 clients are asked for roots only inside a tool call's input round
  }
  return server;
}

/** A tool call's outcome as /metrics counts it: `ok`, or the code an error result begins with (profiles carry theirs in _meta). */
function outcomeOf(r: CallToolResult): string {
  if (!r.isError) return 'ok';
  const meta = (r._meta as { 'cairn/error'?: { code?: string } } | undefined)?.['cairn/error']?.code;
  const first = r.content[0];
  const text = first?.type === 'text' ? /^[A-Z][A-Z_]+/.exec(first.text)?.[0] : undefined;
  return meta ?? text ?? 'ERROR';
}

function measured(inFlight: NonNullable<BuildMcpServerOptions['track']>, report: NonNullable<BuildMcpServerOptions['onToolCall']>) {
  return async <T>(tool: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const r = await inFlight(work);
    report(tool, outcomeOf(r as CallToolResult), performance.now() - start);
    return r;
  };
}
