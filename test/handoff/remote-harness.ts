/** A real `cairn serve` on a fixed port that can be stopped and started again, and the built CLI pointed at it (CAIRN_URL). */
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

/** `cairn serve` in its own process; resolves once it listens. */
export async function startServe(db: string, port: number): Promise<{ stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--db', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CAIRN_ACCESS_LOG: '0', CAIRN_RATE_LIMIT: '0' },
  });
  await new Promise<void>((ok, fail) => {
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
      if (/"url":"http/.test(err)) ok();
    });
    child.once('exit', (code) => fail(new Error(`cairn serve exited (${code}): ${err}`)));
  });
  return { stop: () => new Promise<void>((done) => (child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')))) };
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
