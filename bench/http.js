// HTTP section: the built `cairn serve` in its own process — MCP tool calls over Streamable HTTP with 1, 10 and 50
// concurrent clients (v2 SDK client on 2026-07-28, stateless; v1 client on 2025-11-25, sessionful), REST GET
// throughput with autocannon, and the server's peak RSS.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import autocannon from 'autocannon';
import { Database } from '../dist/store/sqlite/native.js';
import { readFileSync } from 'node:fs';
import { percentile } from './lib/stats.js';
import { PROJECTS } from './lib/words.js';
import { startServe } from '../scripts/lib/start-serve.js';

const SECONDS = 4;

async function connect(url, era) {
  if (era === 'v2') {
    const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    return c;
  }
  const c = new ClientV1({ name: 'bench', version: '1' });
  await c.connect(new TransportV1(new URL(`${url}/mcp`)));
  return c;
}

/** `clients` concurrent clients calling get_task back to back for SECONDS: calls/s and per-call latency. */
async function load(url, era, clients, ids) {
  const cs = await Promise.all(Array.from({ length: clients }, () => connect(url, era)));
  for (const c of cs) for (let i = 0; i < 20; i++) await c.callTool({ name: 'get_task', arguments: { id: ids[i % ids.length] } });
  const times = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    cs.map(async (c, k) => {
      for (let i = k; performance.now() < end; i += clients) {
        const s = performance.now();
        const r = await c.callTool({ name: 'get_task', arguments: { id: ids[i % ids.length] } });
        times.push(performance.now() - s);
        if (r.isError) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  await Promise.all(cs.map((c) => c.close()));
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length, rate: times.length / elapsed, errors };
}

async function cannon(url, connections, paths) {
  let i = 0;
  const r = await autocannon({
    url,
    connections,
    duration: SECONDS,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  return { p50: r.latency.p50, p99: r.latency.p99, n: r.requests.total, rate: r.requests.average, errors: r.errors + r.non2xx };
}

export const section = {
  name: 'http',
  async run({ db, log }) {
    const sample = new Database(db, { readonly: true });
    const ids = sample.prepare("SELECT p.key || '-' || t.seq FROM tasks t JOIN projects p ON p.uid = t.project_uid ORDER BY random() LIMIT 2000").pluck().all();
    sample.close();
    const { child, url } = await startServe(db, { CAIRN_RATE_LIMIT: '0' });
    const metrics = [];
    const values = [];
    try {
      for (const era of ['v2', 'v1']) {
        for (const n of [1, 10, 50]) {
          log(`mcp ${era} x${n}`);
          const m = await load(url, era, n, ids);
          const label = `MCP get_task, ${n} client${n > 1 ? 's' : ''} (${era === 'v2' ? 'v2 client, 2026-07-28' : 'v1 client, 2025-11-25'})`;
          metrics.push({ key: `mcp_${era}_${n}`, label, p50: m.p50, p99: m.p99, n: m.n });
          values.push({ key: `mcp_${era}_${n}_rate`, label: `${label}: calls/s`, value: m.rate, unit: 'calls/s' });
          if (m.errors) values.push({ key: `mcp_${era}_${n}_errors`, label: `${label}: errors`, value: m.errors, unit: 'errors' });
        }
      }
      const rest = [
        ['rest_get', 'REST GET /api/v1/tasks/:id (10 connections)', ids.map((id) => `/api/v1/tasks/${id}`)],
        ['rest_list', 'REST GET /api/v1/tasks?project=…&limit=50 (10 connections)', PROJECTS.map((p) => `/api/v1/tasks?project=${p.key}&limit=50`)],
      ];
      for (const [key, label, paths] of rest) {
        log(key);
        const m = await cannon(url, 10, paths);
        metrics.push({ key, label, p50: m.p50, p99: m.p99, n: m.n });
        values.push({ key: `${key}_rate`, label: `${label}: requests/s`, value: m.rate, unit: 'req/s' });
        if (m.errors) values.push({ key: `${key}_errors`, label: `${label}: errors`, value: m.errors, unit: 'errors' });
      }
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
      values.push({ key: 'rss', label: 'server peak RSS', value: hwm, unit: 'MB' });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    return {
      title: 'HTTP (cairn serve)',
      method:
        `The built \`cairn serve\` (access log and rate limit off) in its own process; the load generator runs on the same machine and shares its cores. ` +
        `MCP: N SDK clients call get_task on random ids back to back for ${SECONDS} s after 20 warm-up calls each; p50/p99 per call, calls/s overall. ` +
        `The v2 client speaks 2026-07-28 (stateless: a server instance per request); the v1 client 2025-11-25 (one session per client). ` +
        `REST: autocannon, 10 connections, ${SECONDS} s, random task ids or the six projects' first 50 tasks. RSS: the server's VmHWM.`,
      metrics,
      values,
      notes: [],
    };
  },
};
