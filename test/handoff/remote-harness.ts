/** A real `cairn serve` on a port of its own that can be stopped and started again there, and the built CLI pointed at it (CAIRN_URL). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/cairn.js');

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/**
 * `cairn serve` in its own process; resolves once it listens, with the port it bound. Without a port
 * it takes any free one (`--port 0`): a port picked beforehand and freed can be taken by another
 * test's server before this one binds it. A given port (a restart on the same address) is retried
 * briefly while another process still holds it.
 */
export async function startServe(db: string, port = 0): Promise<{ port: number; url: string; stop(): Promise<void> }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await serveOnce(db, port);
    } catch (err) {
      if (port === 0 || attempt >= 20 || !/already in use/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function serveOnce(db: string, port: number): Promise<{ port: number; url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--db', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CAIRN_ACCESS_LOG: '0', CAIRN_RATE_LIMIT: '0' },
  });
  const url = await new Promise<string>((ok, fail) => {
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /"url":"(http[^"]+)"/.exec(err);
      if (m) ok(m[1]!.replace(/\/$/, ''));
    });
    child.once('exit', (code) => fail(new Error(`cairn serve exited (${code}): ${err}`)));
  });
  return {
    port: Number(new URL(url).port),
    url,
    stop: () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))),
  };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json<T = any>(): T;
}

/** The environment for a client of `url`: nothing else of the parent's Cairn settings. */
export function clientEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('CAIRN_')) env[k] = v;
  return { ...env, NO_COLOR: '1', CAIRN_URL: url, CAIRN_ACTOR: 'agent:client', ...extra };
}

/** Runs the CLI as a remote client from `cwd`; `onStderr` sees its stderr as it comes (to kill it at a point). */
export function cli(cwd: string, url: string, args: string[], opts: { env?: Record<string, string>; onStderr?: (text: string, child: ChildProcess) => void } = {}): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: clientEnv(url, opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => {
      stderr += d;
      opts.onStderr?.(stderr, child);
    });
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code: code ?? (signal ? -1 : -2), stdout, stderr, json: () => JSON.parse(stdout) }));
  });
}
