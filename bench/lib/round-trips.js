// Tool round trips as a host makes them: `cairn mcp` spawned by an official SDK client (v1 on
// protocol 2025-11-25, or v2), tools/list read first, then `callTool`, which checks every
// structuredContent against the tool's output schema. Each call is split three ways: the client's
// own work (before its request reaches the pipe, and from the answer's first byte to callTool
// resolving: JSON parsing, the SDK's result schema, output validation), the server's own time
// (bench/lib/server-timing.mjs), and the rest, the pipes and both processes' wake-ups.
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './stats.js';

const KINDS = {
  v1: () => ({ client: new ClientV1({ name: 'bench', version: '1' }), Transport: StdioV1 }),
  v2: () => ({ client: new ClientV2({ name: 'bench', version: '1' }), Transport: StdioV2 }),
};

/** Times when the request left and the answer's first byte came back, read off the child's pipes. */
function watchPipes(transport) {
  const proc = transport._process;
  const marks = { sent: 0, arrived: 0 };
  proc.stdout.prependListener('data', () => {
    if (!marks.arrived) marks.arrived = performance.now();
  });
  const write = proc.stdin.write.bind(proc.stdin);
  proc.stdin.write = (...a) => {
    if (!marks.sent) marks.sent = performance.now();
    return write(...a);
  };
  return marks;
}

/**
 * Starts `cairn mcp` (or another stdio server: `cwd`, extra `env`; without `serverTiming`, no server
 * part) under `kind`'s client and lists its tools. `calls`: op key → (i) → [tool, args].
 * Each op: `warmup` calls, then `n` timed ones (fewer if `budgetMs` runs out first). Answers per op: total, client and server p50/p99,
 * and the pipes (the median round trip less the medians of the client's and the server's parts).
 */
export async function roundTrips({ kind, command, args, serverTiming, calls, warmup, n, cwd, env, budgetMs = Infinity }) {
  const timingDir = mkdtempSync(join(tmpdir(), 'cairn-bench-rt-'));
  const timingFile = join(timingDir, 'server.json');
  const { client, Transport } = KINDS[kind]();
  const transport = new Transport({
    command,
    args: serverTiming ? ['--import', serverTiming, ...args] : args,
    cwd,
    env: { ...process.env, ...env, ...(serverTiming ? { CAIRN_BENCH_SERVER_TIMING: timingFile } : {}) },
    stderr: 'ignore',
  });
  await client.connect(transport);
  const marks = watchPipes(transport);
  await client.listTools();
  const samples = {};
  try {
    for (const [key, make] of Object.entries(calls)) {
      const total = [];
      const own = [];
      let deadline = Infinity;
      for (let i = 0; i < warmup + n && performance.now() < deadline; i++) {
        if (i === warmup) deadline = performance.now() + budgetMs;
        const [name, a] = make(i);
        marks.sent = 0;
        marks.arrived = 0;
        const t0 = performance.now();
        const res = await client.callTool({ name, arguments: a });
        const t1 = performance.now();
        if (res.isError) throw new Error(`${kind} ${name}: ${res.content[0]?.text}`);
        if (i < warmup) continue;
        total.push(t1 - t0);
        own.push(marks.sent - t0 + (t1 - marks.arrived));
      }
      samples[key] = { tool: make(0)[0], total, own };
    }
  } finally {
    await client.close();
  }
  for (let waited = 0; !existsSync(timingFile) && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  const serverTimes = existsSync(timingFile) ? JSON.parse(readFileSync(timingFile, 'utf8')) : {};
  rmSync(timingDir, { recursive: true, force: true });
  const stat = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: percentile(s, 50), p99: percentile(s, 99), n: s.length };
  };
  // The server's times per tool are in call order; an op's timed calls are its last n, unless a later op used the same tool.
  const used = {};
  const out = {};
  for (const key of Object.keys(calls).reverse()) {
    const { tool, total, own } = samples[key];
    const all = serverTimes[tool] ?? [];
    const end = all.length - (used[tool] ?? 0);
    used[tool] = (used[tool] ?? 0) + warmup + total.length;
    const server = all.slice(Math.max(0, end - total.length), end);
    const t = stat(total);
    const c = stat(own);
    const s = server.length ? stat(server) : undefined;
    out[key] = { total: t, client: c, server: s, pipes: s ? t.p50 - c.p50 - s.p50 : undefined };
  }
  return out;
}
