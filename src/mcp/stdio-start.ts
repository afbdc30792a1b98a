/**
 * Starts the stdio server the fast way: answers a 2025 client's `initialize` before the server's
 * modules load (early-initialize.ts), then loads and runs it. Shared by the standalone entry
 * (stdio-entry.ts) and `cairn mcp` (bin/cairn.js), so both answer as early.
 */
import { answerInitializeEarly, answersEarly, EARLY_WAIT_MS, type EarlyStart } from './early-initialize.js';
import type { McpStdioOptions } from './main.js';

/**
 * Runs the server until it shuts down; a failure to start (a bad toolset or profile) rejects.
 * `early` is the answer already under way when the caller started it before loading this module
 * (bin/cairn.js does, before it reads the server's bundle); undefined when it did not.
 */
export async function startMcpStdio(opts: McpStdioOptions, env: NodeJS.ProcessEnv = process.env, early?: Promise<EarlyStart>): Promise<void> {
  const pending = early ?? (answersEarly(opts, env) ? answerInitializeEarly(EARLY_WAIT_MS) : undefined);
  const answered = pending && (await pending);
  const { runMcpStdio } = await import('./main.js');
  await runMcpStdio(answered ? { ...opts, early: answered } : opts);
}
