/** The REST client: bearer token from the browser's storage, JSON in and out, errors as ApiError with the server's code. */

export const TOKEN_KEY = 'cairn.token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly suggestions: string[] = [],
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage may be disabled: the token then lasts for this page only
  }
}

/**
 * What the board's components read and write through: REST paths, verbs and JSON. `Api` sends them
 * over HTTP; inside an MCP host the views send them as tool calls (src/web/apps/bridge-api.ts).
 */
export interface BoardApi {
  token: string | null;
  /** Called when the server wants a token (a 401); the failed call still rejects. */
  onUnauthorized: (err: ApiError) => void;
  get<T>(path: string, query?: Query): Promise<T>;
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

export class Api implements BoardApi {
  token: string | null = readToken();
  /** Called on 401 so the page can ask for a token; the failed call still rejects. */
  onUnauthorized: (err: ApiError) => void = () => undefined;

  headers(): Record<string, string> {
    // Without a token the board records its edits as "user"; with one, the server names the token.
    return this.token ? { authorization: `Bearer ${this.token}` } : { 'x-cairn-actor': 'user' };
  }

  get<T>(path: string, query: Query = {}): Promise<T> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return this.request<T>('GET', s ? `${path}?${s}` : path);
  }

  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown = {}): Promise<T> {
    return this.request<T>(method, path, body);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`/api/v1${path}`, {
        method,
        headers: { ...this.headers(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new ApiError(0, 'NETWORK', `The server did not answer (${String(err)}). Is cairn serve running?`);
    }
    const text = await res.text();
    let data: any = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (res.ok) return data as T;
    const e = data?.error ?? {};
    const err = new ApiError(res.status, e.code ?? `HTTP_${res.status}`, e.message ?? `${method} ${path} failed with ${res.status}`, e.suggestions ?? [], e.details ?? {});
    if (res.status === 401) this.onUnauthorized(err);
    throw err;
  }
}

export const api = new Api();
