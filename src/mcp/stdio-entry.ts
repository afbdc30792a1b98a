/**
 * A standalone entry for `node dist/mcp/stdio-entry.js [--db P] [--project K] [--toolsets a,b] [--read-only] [--as A]`:
 * the same server `cairn mcp` runs, without loading the CLI (tests, benchmarks, hosts that want the fastest start).
 */
import * as nodeModule from 'node:module';
import { parseArgs } from 'node:util';
import type { McpStdioOptions } from './main.js';
import { startMcpStdio } from './stdio-start.js';

// Node >= 22.1 can cache compiled code between runs; on Node 20 this is a no-op.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    project: { type: 'string' },
    toolsets: { type: 'string' },
    'read-only': { type: 'boolean' },
    as: { type: 'string' },
    profile: { type: 'string' },
  },
  strict: true,
});
const opts: McpStdioOptions = {};
if (values.db) opts.db = values.db;
if (values.project) opts.project = values.project;
if (values.toolsets) opts.toolsets = values.toolsets;
if (values['read-only']) opts.readOnly = true;
if (values.as) opts.actor = values.as;
if (values.profile) opts.profile = values.profile;
try {
  await startMcpStdio(opts);
} catch (err) {
  process.stderr.write(`[cairn mcp] error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
