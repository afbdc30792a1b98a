// A stdio MCP server that does no work: it answers initialize, tools/list and each tools/call with
// answers recorded from `cairn mcp` (a JSON file: {tools: <tools/list result>, calls: {<tool>: <result>}}),
// serialized per call as any server must. Timed through the same SDK client as the real servers, it
// gives the floor of a round trip in the same window: the client's own work (its result schema and
// output-schema validation of the same bytes), the pipes and the wake-ups, with no server work to speak of.
// With `busyUs` in the file ({<tool>: microseconds}), each call of that tool first keeps the CPU busy that
// long, as a server computing its answer does: on a virtual machine an idle core sleeps, and waking
// the client's core and this one costs more the longer this server was busy (docs/benchmarks.md, peers).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const answer = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return; // a notification
  if (m.method === 'initialize') answer(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'replay', version: '1' } });
  else if (m.method === 'tools/list') answer(m.id, recorded.tools);
  else if (m.method === 'tools/call') {
    const until = performance.now() + (recorded.busyUs?.[m.params.name] ?? 0) / 1000;
    while (performance.now() < until);
    answer(m.id, recorded.calls[m.params.name]);
  }
  else answer(m.id, {});
});
