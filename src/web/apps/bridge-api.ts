/**
 * The board's REST calls as MCP tool calls through the host (an MCP Apps view may talk to nothing
 * else). Each op's REST binding is the route table's row (scripts/bundle-views.js builds it from the
 * ops at bundle time), so a path reaches the op the HTTP API would run, with the same arguments.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import { ApiError, type BoardApi, type Query } from '../lib/api.js';

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  tool: string;
  /** The MCP tool answers compact rows where REST answers summaries: under `tasks`, or `results[].task`. */
  rows?: 'tasks' | 'results';
}

/** How the MCP tools' rows differ from REST's summaries, from src/mcp/detail-fields.ts at bundle time. */
export interface RowShape {
  /** The summary fields a row leaves out unless asked for: asked for, so a row is a whole summary again. */
  extras: string[];
  /** What a row leaves out when it says nothing, and the summary's value then. */
  omits: Record<string, unknown>;
}

declare const __CAIRN_ROUTES__: Route[];
declare const __CAIRN_ROWS__: RowShape;

function match(route: Route, method: string, path: string): Record<string, string> | undefined {
  if (route.method !== method) return undefined;
  const want = route.path.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!);
    else if (want[i] !== got[i]) return undefined;
  }
  return params;
}

/** A tool error's text begins with its code (src/ops/error-text.ts); suggestions follow as a list. */
function errorOf(text: string): ApiError {
  const [first = '', ...rest] = text.split('\n');
  const m = /^([A-Z][A-Z_]+): ([\s\S]*)$/.exec(first);
  const suggestions = rest.filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
  return new ApiError(0, m?.[1] ?? 'ERROR', m?.[2] ?? first, suggestions);
}

export class BridgeApi implements BoardApi {
  token: string | null = null;
  onUnauthorized: (err: ApiError) => void = () => undefined;

  constructor(
    private readonly app: App,
    private readonly routes: Route[] = __CAIRN_ROUTES__,
    private readonly rows: RowShape = __CAIRN_ROWS__,
  ) {}

  get<T>(path: string, query: Query = {}): Promise<T> {
    return this.call<T>('GET', path, query);
  }

  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown = {}): Promise<T> {
    return this.call<T>(method, path, body as Record<string, unknown>);
  }

  private async call<T>(method: Route['method'], path: string, args: Record<string, unknown>): Promise<T> {
    let params: Record<string, string> | undefined;
    const route = this.routes.find((r) => (params = match(r, method, path)) !== undefined);
    if (!route) throw new ApiError(0, 'ROUTE_NOT_FOUND', `No tool answers ${method} ${path}.`);
    const given = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null && v !== ''));
    const input = { ...given, ...params, ...(route.rows ? { fields: this.rows.extras } : {}) };
    let result: Awaited<ReturnType<App['callServerTool']>>;
    try {
      result = await this.app.callServerTool({ name: route.tool, arguments: input });
    } catch (err) {
      throw new ApiError(0, 'HOST', `The host did not pass on ${route.tool}: ${(err as Error).message}`);
    }
    if (result.isError) {
      const first = result.content?.[0];
      throw errorOf(first?.type === 'text' ? first.text : `${route.tool} failed`);
    }
    const out = (result.structuredContent ?? {}) as Record<string, unknown>;
    const summary = (row: Record<string, unknown>) => ({ ...this.rows.omits, ...row });
    if (route.rows === 'tasks') return { ...out, tasks: (out.tasks as Array<Record<string, unknown>>).map(summary) } as T;
    if (route.rows === 'results') return { ...out, results: (out.results as Array<{ task: Record<string, unknown> }>).map((r) => ({ ...r, task: summary(r.task) })) } as T;
    return out as T;
  }
}
