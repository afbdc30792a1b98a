/** HTTP test harness: a real `cairn serve` app on 127.0.0.1 with an ephemeral port over a temporary workspace. */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { resolve } from 'node:path';
import type { AccessLogEntry } from '../../src/http/access-log.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/http/main.js';
import { openStore } from '../../src/workspace.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import type { Store } from '../../src/core/ports.js';

export interface Served {
  ws: TempWorkspace;
  store: Store;
  server: RunningServer;
  url: string;
  log: AccessLogEntry[];
  /** fetch against the server with JSON in and out. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
}

export async function serve(opts: Partial<StartOptions> = {}): Promise<Served> {
  const ws = tempWorkspace('cairn-http-');
  const store = openStore(ws.db);
  const log: AccessLogEntry[] = [];
  const server = await startServer({ store, port: 0, accessLog: (e) => log.push(e), ...opts });
  const call: Served['call'] = async (method, path, body, headers = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    ws,
    store,
    server,
    url: server.url,
    log,
    call,
    async stop() {
      await server.close();
      await store.close();
      ws.cleanup();
    },
  };
}

const BIN = resolve(import.meta.dirname, '../../bin/cairn.js');

/** Runs the built CLI in another process against the workspace (a write "from elsewhere"). */
export function cli(db: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(['--db', db, ...args]);
}

/** Runs the built CLI in another process; `env` replaces the environment when given (a clean one names the workspace or server itself). */
export function runCli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(opts.cwd ? { cwd: opts.cwd } : {}), ...(opts.env ? { env: opts.env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

/** `cairn serve --port 0` in its own process (the built bin), so a load test's clients and the server use separate cores. */
/** `bin`: another build's cairn.js (a rolling upgrade runs two versions side by side). */
export async function serveProcess(db: string, env: Record<string, string> = {}, bin = BIN): Promise<{ url: string; stop(): Promise<void>; kill(): Promise<void>; log(): string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CAIRN_ACCESS_LOG: '0', CAIRN_RATE_LIMIT: '0', ...env },
  });
  let err = '';
  let stopping = false;
  // A server that dies on its own says why in the test's output (its log is otherwise thrown away).
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`\n[cairn serve ${child.pid} exited by itself: ${code ?? signal}]\n${err.slice(-6000)}\n`);
  });
  const url = await new Promise<string>((ok, fail) => {
    child.stderr.on('data', (d) => {
      err += d;
      if (err.length > 100_000) err = err.slice(-50_000);
      const m = /"url":"(http:\/\/[^"]+)"/.exec(err);
      if (m) ok(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`cairn serve exited (${code}): ${err}`)));
  });
  const ended = (signal: NodeJS.Signals) =>
    new Promise<void>((done) => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill(signal);
    });
  return {
    url,
    stop: () => ended('SIGTERM'),
    /** SIGKILL: no shutdown, no chance to finish anything. */
    kill: () => ended('SIGKILL'),
    /** What it wrote to stderr so far (its last 50–100 KB). */
    log: () => err,
  };
}

/** Reads server-sent events from a fetch response until `stop` says so or the signal aborts. */
export async function readSse(res: Response, onEvent: (e: { id?: string; event?: string; data: string }) => boolean | void): Promise<void> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const e: { id?: string; event?: string; data: string } = { data: '' };
        for (const line of frame.split('\n')) {
          if (line.startsWith('id:')) e.id = line.slice(3).trim();
          else if (line.startsWith('event:')) e.event = line.slice(6).trim();
          else if (line.startsWith('data:')) e.data += line.slice(5).trim();
        }
        if (e.data && onEvent(e) === true) return;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * fetch over a fresh connection per request (no keep-alive). A pooled connection the server closes for
 * idleness can be picked for the next request just as it closes ("other side closed"); the client's
 * own idle timer prevents that only when it fires on time, which a process starved on a loaded
 * machine cannot promise. Without reuse there is no such race. For the real SDK clients' `fetch` option.
 */
export const freshConnectionFetch = (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const headers = new Headers(init.headers);
  headers.set('connection', 'close');
  const method = init.method ?? 'GET';
  return new Promise<Response>((resolve, reject) => {
    const req = httpRequest(url, { method, headers: Object.fromEntries(headers), agent: false, ...(init.signal ? { signal: init.signal } : {}) }, (res) => {
      const h = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) for (const x of [v].flat()) h.append(k, x);
      const status = res.statusCode ?? 0;
      const empty = status === 204 || status === 304 || method === 'HEAD';
      if (empty) res.resume();
      resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: h }));
    });
    req.on('error', reject);
    if (init.body === undefined || init.body === null) req.end();
    else if (typeof init.body === 'string') req.end(init.body);
    else reject(new Error('freshConnectionFetch sends string bodies only'));
  });
}) as typeof fetch;
