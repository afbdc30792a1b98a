// Preloaded into the benchmarked stdio server (node --import): for each request, the time from its
// bytes reaching the server's stdin handler to the server writing the reply, by tool. The round trip
// the client sees also holds the pipes, both event loops' wake-ups and the client's own work; this
// is what of it the server spent. The benchmark's client calls one tool at a time, so each stdin
// chunk is one request and the next stdout write is its reply. Written as JSON to
// $CAIRN_BENCH_SERVER_TIMING when the server exits.
import { writeFileSync } from 'node:fs';

const out = process.env.CAIRN_BENCH_SERVER_TIMING;
if (out) {
  const times = {};
  let started = 0;
  let request;
  const on = process.stdin.on.bind(process.stdin);
  process.stdin.on = function (event, listener) {
    if (event !== 'data') return on(event, listener);
    return on(event, (chunk) => {
      started = performance.now();
      request = chunk;
      return listener(chunk);
    });
  };
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = function (...args) {
    if (started) {
      const ms = performance.now() - started;
      started = 0;
      // Named after the write, so the parse is not timed.
      setImmediate((raw) => {
        try {
          const m = JSON.parse(String(raw).trim().split('\n')[0]);
          const key = m.method === 'tools/call' ? m.params.name : m.method;
          (times[key] ??= []).push(ms);
        } catch {
          // Not a single JSON-RPC request (never from the benchmark's client): not counted.
        }
      }, request);
    }
    return write(...args);
  };
  process.on('exit', () => writeFileSync(out, JSON.stringify(times)));
}
