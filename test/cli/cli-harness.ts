/** Runs the built `cairn` bin in a child process against a temporary workspace, as a user or a script would. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/cairn.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs). */
  json<T = any>(): T;
}

export interface CliHarness {
  dir: string;
  db: string;
  /** Runs `cairn ...args` in `dir` with CAIRN_DB=db (unless env overrides), NO_COLOR and CAIRN_ACTOR=tester. */
  run(args: string[], opts?: { env?: Record<string, string | undefined>; cwd?: string }): CliResult;
  /** Like run, without blocking: independent commands can run side by side. */
  runAsync(args: string[], opts?: { env?: Record<string, string | undefined>; cwd?: string }): Promise<CliResult>;
  /**
   * Runs many command lines in ONE process through the built CLI's main() (dist/cli/main.js),
   * capturing each one's output and exit code: the same code path as the bin, without a
   * process start per case. Use it for large matrices; use run() for true end-to-end checks.
   */
  runMany(argvs: string[][], opts?: { env?: Record<string, string | undefined>; cwd?: string }): CliResult[];
  /** Runs with --json and returns the parsed output, failing loudly on a non-zero exit. */
  ok<T = any>(args: string[], opts?: { env?: Record<string, string | undefined>; cwd?: string }): T;
  cleanup(): void;
}

/** The parent's environment without anything that would steer Cairn. */
function cleanEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('CAIRN_') || k === 'FORCE_COLOR' || k === 'NO_COLOR') delete env[k];
  return env;
}

const MAIN_URL = new URL('../dist/cli/main.js', `file://${BIN}`).href;
const STDOUT_URL = new URL('../dist/cli/stdout.js', `file://${BIN}`).href;

/** Runs each argv through main(), swapping stdout/stderr writes for buffers around each call. */
const BATCH_SCRIPT = `
  import { main } from ${JSON.stringify(MAIN_URL)};
  import { stdout } from ${JSON.stringify(STDOUT_URL)};
  // Output into a pipe skips the stream (src/cli/stdout.ts); taking it first routes it through the write captured here.
  stdout();
  const out = process.stdout.write.bind(process.stdout);
  const results = [];
  for (const args of JSON.parse(process.argv[1])) {
    const r = { code: -1, stdout: '', stderr: '' };
    process.stdout.write = (s) => ((r.stdout += s), true);
    process.stderr.write = (s) => ((r.stderr += s), true);
    r.code = await main(['node', 'cairn', ...args]);
    results.push(r);
  }
  process.stdout.write = out;
  out(JSON.stringify(results));
`;

function result(code: number, stdout: string, stderr: string): CliResult {
  return {
    code,
    stdout,
    stderr,
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`not JSON (exit ${code}): ${stdout}\n${stderr}`);
      }
    },
  };
}

/** The parsed --json output of a successful run; a failure shows its output. */
export function okJson<T = any>(r: CliResult, label = ''): T {
  if (r.code !== 0) throw new Error(`${label} exited ${r.code}: ${r.stdout}${r.stderr}`);
  return r.json();
}

export function cliHarness(opts: { useEnvDb?: boolean } = {}): CliHarness {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-'));
  const db = join(dir, 'ws', 'cairn.db');
  type RunOpts = { env?: Record<string, string | undefined>; cwd?: string };
  const envFor = (o: RunOpts): NodeJS.ProcessEnv => {
    const env: Record<string, string | undefined> = { ...cleanEnv(), NO_COLOR: '1', CAIRN_ACTOR: 'tester', ...(opts.useEnvDb === false ? {} : { CAIRN_DB: db }), ...o.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    return env as NodeJS.ProcessEnv;
  };
  const run = (args: string[], o: RunOpts = {}): CliResult => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: o.cwd ?? dir, env: envFor(o), encoding: 'utf8' });
    return result(r.status ?? -1, r.stdout, r.stderr);
  };
  const runAsync = (args: string[], o: RunOpts = {}): Promise<CliResult> =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: o.cwd ?? dir, env: envFor(o) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', fail);
      child.on('close', (code) => done(result(code ?? -1, stdout, stderr)));
    });
  const runMany = (argvs: string[][], o: RunOpts = {}): CliResult[] => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', BATCH_SCRIPT, JSON.stringify(argvs)], { cwd: o.cwd ?? dir, env: envFor(o), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`batch runner failed: ${r.stderr}`);
    return (JSON.parse(r.stdout) as Array<{ code: number; stdout: string; stderr: string }>).map((x) => result(x.code, x.stdout, x.stderr));
  };
  return {
    dir,
    db,
    run,
    runAsync,
    runMany,
    ok(args, o) {
      const r = run([...args, '--json'], o);
      if (r.code !== 0) throw new Error(`cairn ${args.join(' ')} exited ${r.code}: ${r.stdout}${r.stderr}`);
      return r.json();
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
