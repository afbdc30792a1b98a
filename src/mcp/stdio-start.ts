/**
 * Starts the stdio server the fast way: answers a 2025 client's `initialize` before the server's
 * modules load (early-initialize.ts), then loads and runs it. Shared by the standalone entry
 * (stdio-entry.ts) and `cairn mcp` (src/cli/commands/mcp-fast.ts), so both answer as early.
 */
import { answerInitializeEarly } from './early-initialize.js';
import type { McpStdioOptions } from './main.js';

/** Hosts send initialize as soon as they spawn the server; one that waits longer gets no early answer. */
const EARLY_WAIT_MS = 100;

/** Runs the server until it shuts down; a failure to start (a bad toolset or profile) rejects. */
export async function startMcpStdio(opts: McpStdioOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // A profile's server has its own name and capabilities, and a toolset list or remote server may be
  // refused as the server starts (the host then sees that exit instead of an answer): those answer
  // once loaded.
  const plain = !opts.profile && !opts.toolsets && !opts.remote && !env.CAIRN_PROFILE && !env.CAIRN_TOOLSETS && !env.CAIRN_URL;
  const early = plain ? await answerInitializeEarly(EARLY_WAIT_MS) : undefined;
  const { runMcpStdio } = await import('./main.js');
  await runMcpStdio(early ? { ...opts, early } : opts);
}
