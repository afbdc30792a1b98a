/**
 * /mcp: MCP over Streamable HTTP. 2026-07-28 clients are served statelessly (any replica can answer
 * any request; push through subscriptions/listen). 2025-11-25 clients get a sessionful leg by default
 * (resources/subscribe push, roots, log level) or, with `legacy: 'stateless'`, the SDK's stateless fallback.
 */
import { randomUUID } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { CairnError } from '../core/errors.js';
import {
  createMcpHandler,
  isLegacyRequest,
  legacyStatelessFallback,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpRequestContext,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { Context as HonoContext, Hono } from 'hono';
import type { Context as CoreContext } from '../core/context.js';
import type { ChangeFeed } from '../core/services/change-feed.js';
import { truthy } from '../core/rules/flag-value.js';
import { explicitProject } from '../ops/default-project.js';
import { findOp, gateRefusal } from '../ops/index.js';
import { errorText } from '../ops/error-text.js';
import { protoArgumentRefusal } from '../mcp/proto-arguments.js';
import { buildMcpServer, forwardChanges, parseToolsets, stdioSink, type BuildMcpServerOptions } from '../mcp/server.js';
import { findProfile, parseProfileToolsets, type Profile } from '../profiles/index.js';
import { INSUFFICIENT_SCOPE_HEADER, type AuthEnv, type Principal } from './auth.js';
import { errorResponse, json } from './http-errors.js';
import { endBodyOn, type RevocationWatch } from './revocation-watch.js';
import { SessionEventStore } from './session-event-store.js';
import { identityFor, keyRules, mayAdminister, storeFor, tokenProject } from './rest-routes.js';

export interface McpEndpointOptions {
  feed: ChangeFeed;
  /** How 2025-era clients are served; default 'sessions'. */
  legacy?: 'sessions' | 'stateless';
  /** Sessions idle this long are closed (default 10 min). */
  sessionIdleMs?: number;
  /** At this many sessions the least recently used one is closed to admit a new one (default 1000). */
  maxSessions?: number;
  /** A session whose listen stream closed and that sent nothing since is closed after this long (default 10 s). */
  streamGraceMs?: number;
  /** Called when a 2025 session has ended, for whatever reason. */
  onSessionEnded?: () => void;
  /** Ends sessions and streams once the token that opened them is revoked. */
  revocations?: RevocationWatch;
  /** Told of every tool call, with the surface that served it (`native`, or the profile's name). */
  onToolCall?: (surface: string, tool: string, outcome: string, ms: number) => void;
  /** The transport's own errors (a malformed message, a broken stream). */
  onError?: (err: Error) => void;
}

export interface McpEndpoint {
  close(): Promise<void>;
  readonly sessionCount: number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  tokenId: string | null;
  lastSeen: number;
  /** Open GET streams (the client is listening for push): such a session is never idle. */
  streams: number;
  unforward: () => void;
  /** Stops watching the session's token (it ended by itself). */
  unhold?: () => void;
}

/**
 * Per-request server options: toolsets, read-only and project from the query string; a read token
 * forces read-only. /mcp/{profile} serves that seed's surface with the same tokens and rules.
 */
function serverOptions(core: CoreContext, p: Principal, url: URL, actorHeader: string | undefined, profileName: string | undefined): BuildMcpServerOptions {
  const q = url.searchParams;
  const project = explicitProject(q.get('project'), tokenProject(p));
  const profile = profileName === undefined ? undefined : findProfile(profileName);
  return {
    store: storeFor(core, p),
    ...identityFor(p, q.get('as') ?? actorHeader),
    services: { ...keyRules(core, p), mayAdminister: mayAdminister(p), ...(core.openForeignSqlite ? { openForeignSqlite: core.openForeignSqlite } : {}) },
    toolsets: profile ? [] : parseToolsets(q.get('toolsets') ?? undefined),
    readOnly: p.scope === 'read' || truthy(q.get('readOnly') ?? q.get('read_only') ?? undefined),
    ...(project ? { defaultProject: project } : {}),
    // A profile's workspace variable (TX_DB) belongs to a process its host starts; over HTTP the workspace
    // is the server's. Its project directory (CASTLE_PROJECT_PATH) comes as ?projectPath=.
    ...(profile ? { profile: { profile, toolsets: parseProfileToolsets(profile, q.get('toolsets') ?? undefined), env: profileEnv(profile, q.get('projectPath') ?? undefined) } } : {}),
  };
}

function profileEnv(profile: Profile, projectPath: string | undefined): Record<string, string> {
  if (projectPath === undefined) return {};
  if (!profile.projectPathEnv) {
    throw new CairnError(
      'VALIDATION_ERROR',
      `?projectPath= scopes a profile to a project directory, and the ${profile.name} profile has none (only castle's CASTLE_PROJECT_PATH). Nothing was served.`,
      {
        suggestions: [`/mcp/${profile.name}?project=KEY  (a project by key)`],
      },
    );
  }
  if (!isAbsolute(projectPath)) {
    throw new CairnError('VALIDATION_ERROR', `?projectPath= must be an absolute path on the server's machine, got "${projectPath}". Nothing was served.`, {
      suggestions: [`/mcp/${profile.name}?projectPath=/home/me/src/app`],
    });
  }
  return { [profile.projectPathEnv]: resolve(projectPath) };
}

const OPTIONS_KEY = 'cairn.serverOptions';

function authInfoFor(p: Principal, opts: BuildMcpServerOptions): AuthInfo {
  // The secret never travels further than the auth middleware: tools see the token's id and scope only.
  return { token: p.token?.id ?? 'anonymous', clientId: p.token?.name ?? 'anonymous', scopes: p.scope === 'write' ? ['read', 'write'] : ['read'], extra: { [OPTIONS_KEY]: opts } };
}

function factory(ctx: McpRequestContext): McpServer {
  const opts = ctx.authInfo?.extra?.[OPTIONS_KEY] as BuildMcpServerOptions | undefined;
  if (!opts) throw new Error('MCP request without server options (bypassed the HTTP adapter)');
  return buildMcpServer(opts, ctx);
}

/** Whether a tool of this server changes data (unknown names are left to the server to refuse). */
function writesData(name: string, opts: BuildMcpServerOptions): boolean {
  if (opts.profile) return opts.profile.profile.tools.some((t) => t.name === name && !t.readOnly);
  const op = findOp(name);
  return op !== undefined && !op.readOnly;
}

/** A write tool called with a read token is refused before dispatch with 403 insufficient_scope, naming the scope. */
function scopeRefusal(p: Principal, body: unknown, opts: BuildMcpServerOptions): Response | undefined {
  if (p.scope === 'write') return undefined;
  for (const m of Array.isArray(body) ? body : [body]) {
    const msg = m as { method?: unknown; id?: unknown; params?: { name?: unknown } } | null;
    if (msg?.method !== 'tools/call' || typeof msg.params?.name !== 'string') continue;
    // An admin op names the admin scope, as REST does, rather than the write scope.
    const admin = !opts.profile && findOp(msg.params.name)?.admin === true;
    const refusal = gateRefusal({ name: msg.params.name, readOnly: !writesData(msg.params.name, opts), admin }, { readOnly: true, readOnlyReason: 'token', mayAdminister: mayAdminister(p) });
    if (!refusal) continue;
    return json(403, { jsonrpc: '2.0', id: msg.id ?? null, error: { code: -32003, message: errorText(refusal), data: refusal.details } }, INSUFFICIENT_SCOPE_HEADER);
  }
  return undefined;
}

/** The project key a resource URI is about (cairn://projects/KEY, cairn://tasks/KEY-N); undefined for the workspace-wide ones. */
function projectOfUri(uri: string): string | undefined {
  const m = /^cairn:\/\/(?:projects\/([^/?#]+)|tasks\/([^/?#]+)-\d+)$/.exec(uri);
  return m ? decodeURIComponent(m[1] ?? m[2]!).toUpperCase() : undefined;
}

/**
 * A token limited to projects subscribes only to its projects' resources: the change feed behind
 * subscriptions is the whole workspace's, so a subscription elsewhere would tell it when another
 * project's task changes (resources/subscribe in 2025, subscriptions/listen in 2026).
 */
function subscriptionRefusal(p: Principal, body: unknown): Response | undefined {
  if (!p.projectKeys) return undefined;
  const reach = new Set(p.projectKeys);
  for (const m of Array.isArray(body) ? body : [body]) {
    const msg = m as { method?: unknown; id?: unknown; params?: { uri?: unknown; notifications?: { resourceSubscriptions?: unknown } } } | null;
    const uris =
      msg?.method === 'resources/subscribe'
        ? [msg.params?.uri]
        : msg?.method === 'subscriptions/listen'
          ? Array.isArray(msg.params?.notifications?.resourceSubscriptions)
            ? msg.params.notifications.resourceSubscriptions
            : []
          : [];
    const outside = uris.find((u) => typeof u !== 'string' || !reach.has(projectOfUri(u) ?? ''));
    if (outside === undefined) continue;
    const message = `FORBIDDEN: this token is limited to ${[...reach].join(', ')}, and ${String(outside)} is not one of their resources. Subscribe to cairn://projects/KEY or cairn://tasks/ID of those projects.`;
    return json(403, { jsonrpc: '2.0', id: msg?.id ?? null, error: { code: -32003, message } });
  }
  return undefined;
}

const rpcError = (status: number, code: number, message: string) => json(status, { jsonrpc: '2.0', id: null, error: { code, message } });

export function mountMcp(app: Hono<AuthEnv>, core: CoreContext, opts: McpEndpointOptions): McpEndpoint {
  const sessionsMode = (opts.legacy ?? 'sessions') === 'sessions';
  const onerror = opts.onError ?? ((err: Error) => process.stderr.write(`${JSON.stringify({ level: 'warn', msg: 'mcp', error: err.message })}\n`));
  const modern = createMcpHandler(factory, { legacy: sessionsMode ? 'reject' : 'stateless', onerror });
  const unforwardModern = forwardChanges(opts.feed, modern.notify);
  const stateless = legacyStatelessFallback(factory, onerror);
  const sessions = new Map<string, Session>();
  const idleMs = opts.sessionIdleMs ?? 10 * 60_000;
  const maxSessions = opts.maxSessions ?? 1000;
  const graceMs = opts.streamGraceMs ?? 10_000;
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const s of sessions.values()) if (s.streams === 0 && s.lastSeen < cutoff) void s.transport.close();
    },
    Math.min(60_000, idleMs),
  );
  sweep.unref();

  /**
   * A 2025 client that goes away without DELETE (the v1 SDK client's close() sends none) leaves its
   * session, and what it holds, until the idle sweep. Its listen stream ending says more: a client
   * that is still there reopens it within its retry interval (1 s, set below) or sends a request, so
   * a session with no stream and no request for `graceMs` after that is closed.
   */
  function closeIfGone(s: Session): void {
    const streamEnded = s.lastSeen;
    setTimeout(() => {
      if (s.streams === 0 && s.lastSeen === streamEnded) void s.transport.close();
    }, graceMs).unref();
  }

  async function legacySession(req: Request, body: unknown, p: Principal, options: BuildMcpServerOptions): Promise<Response> {
    const sid = req.headers.get('mcp-session-id');
    const authInfo = authInfoFor(p, options);
    if (sid) {
      const s = sessions.get(sid);
      if (!s) return rpcError(404, -32001, 'Session not found: it expired or this server restarted; initialize a new session');
      if (s.tokenId !== (p.token?.id ?? null)) return rpcError(403, -32003, 'This session belongs to another token');
      s.lastSeen = Date.now();
      if (req.method === 'GET') {
        s.streams++;
        req.signal.addEventListener(
          'abort',
          () => {
            s.streams--;
            s.lastSeen = Date.now();
            if (s.streams === 0) closeIfGone(s);
          },
          { once: true },
        );
      }
      return s.transport.handleRequest(req, { parsedBody: body, authInfo });
    }
    const isInit = req.method === 'POST' && (body as { method?: unknown } | null)?.method === 'initialize';
    // A 2025 client that never initializes (or does without sessions) still gets answered, statelessly.
    if (!isInit) return endOnRevocation(p, await stateless(req, { parsedBody: body, authInfo }));
    // Clients often go away without DELETE (the v1 SDK client's close() sends none): at the cap, the least
    // recently used session makes room; its client gets 404 on its next request and initializes again.
    if (sessions.size >= maxSessions) {
      let oldest: Session | undefined;
      const idleFirst = (x: Session) => (x.streams > 0 ? Number.MAX_SAFE_INTEGER / 2 : 0) + x.lastSeen;
      for (const x of sessions.values()) if (!oldest || idleFirst(x) < idleFirst(oldest)) oldest = x;
      if (oldest) {
        if (oldest.transport.sessionId) sessions.delete(oldest.transport.sessionId);
        void oldest.transport.close();
      }
    }
    const server = buildMcpServer(options, { era: 'legacy', authInfo, requestInfo: req });
    let session: Session | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A POST is answered with plain JSON, not an event stream: a stream with event ids tells the
      // client it may resume, and when this replica dies no other can, so a client with a call in
      // flight would wait out its whole timeout. Plain JSON fails at once. Nothing is lost: Cairn's
      // tools send no progress or requests mid-call, and the listen stream (GET) keeps its event ids.
      enableJsonResponse: true,
      eventStore: new SessionEventStore(),
      retryInterval: 1000,
      onsessioninitialized: (id) => {
        session = { transport, server, tokenId: p.token?.id ?? null, lastSeen: Date.now(), streams: 0, unforward: forwardChanges(opts.feed, stdioSink(server, 'legacy')) };
        if (p.token && opts.revocations) session.unhold = opts.revocations.hold(p.token.id, () => void transport.close());
        sessions.set(id, session);
      },
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      session?.unforward();
      session?.unhold?.();
      if (session) opts.onSessionEnded?.();
    };
    await server.connect(transport);
    return transport.handleRequest(req, { parsedBody: body, authInfo });
  }

  /** A stream the SDK answers with (a 2026 listen stream, an SSE answer) is cut when its token is revoked. */
  function endOnRevocation(p: Principal, res: Response): Response {
    if (!p.token || !opts.revocations || !res.headers.get('content-type')?.startsWith('text/event-stream')) return res;
    const revoked = new AbortController();
    let unhold: (() => void) | undefined = opts.revocations.hold(p.token.id, () => revoked.abort());
    return endBodyOn(res, revoked.signal, () => {
      unhold?.();
      unhold = undefined;
    });
  }

  const handle = async (c: HonoContext<AuthEnv>, profileName: string | undefined) => {
    const p = c.get('principal');
    let options: BuildMcpServerOptions;
    try {
      options = serverOptions(core, p, new URL(c.req.url), c.req.header('x-cairn-actor'), profileName);
      const report = opts.onToolCall;
      if (report) options.onToolCall = (tool, outcome, ms) => report(profileName ?? 'native', tool, outcome, ms);
    } catch (err) {
      return errorResponse(err);
    }
    let body: unknown;
    if (c.req.method === 'POST') {
      const text = await c.req.text();
      try {
        body = JSON.parse(text);
      } catch {
        return rpcError(400, -32700, 'Parse error: the body is not valid JSON');
      }
      const refused = scopeRefusal(p, body, options) ?? subscriptionRefusal(p, body);
      if (refused) return refused;
      const proto = text.includes('__proto__') ? protoArgumentRefusal(body) : undefined;
      if (proto) return json(200, proto);
    }
    const req = c.req.raw;
    if (sessionsMode && (await isLegacyRequest(req, body))) return legacySession(req, body, p, options);
    return endOnRevocation(p, await modern.fetch(req, { parsedBody: body, authInfo: authInfoFor(p, options) }));
  };
  app.all('/mcp', (c) => handle(c, undefined));
  app.all('/mcp/:profile', (c) => handle(c, c.req.param('profile')));

  return {
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweep);
      unforwardModern();
      await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
      sessions.clear();
      await modern.close();
    },
  };
}
