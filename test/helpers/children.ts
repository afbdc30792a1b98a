/** Child processes for multi-process tests: start them, wait until each says "ready", release them together, collect one JSON line each. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface ChildResult<T> {
  code: number | null;
  result: T;
  stderr: string;
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function start(script: string, args: string[]): Running {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    if (stdout.startsWith('ready\n')) onReady();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      onReady();
      resolve({ code, stdout, stderr });
    }),
  );
  return { child, ready, done };
}

/** Runs every child to completion, starting their real work at the same moment. */
export async function runTogether<T>(script: string, argsPerChild: string[][]): Promise<Array<ChildResult<T>>> {
  const children = argsPerChild.map((args) => start(script, args));
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.end('go\n');
  const outs = await Promise.all(children.map((c) => c.done));
  return outs.map(({ code, stdout, stderr }) => {
    const line = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .at(-1);
    if (!line) throw new Error(`child printed no result (exit ${code}): ${stderr || stdout}`);
    return { code, result: JSON.parse(line) as T, stderr };
  });
}
