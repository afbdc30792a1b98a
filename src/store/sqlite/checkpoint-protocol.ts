/**
 * What the checkpointer (checkpointer.ts) and its worker thread (checkpoint-worker.ts) share: the
 * slots of their shared Int32Array, the limits and timings, and what the worker is started with.
 */

/**
 * Past this much log the worker catches up and the main connection checkpoints once itself, so the
 * log can start over: about once per 300 task writes of a steady stream in a file of 2 KiB pages,
 * once per 180 in an older file of 4 KiB pages. Under writes back to back the log goes on growing
 * while the worker catches up (tens of milliseconds), to two or three times this at its largest,
 * under 64 MB (docs/benchmarks.md, footprint).
 */
export const MAX_WAL_BYTES = 16 * 1024 * 1024;

/** MAX_WAL_BYTES in frames of this page size (each frame is a page and a 24-byte header). */
export function maxFrames(pageSize: number): number {
  return Math.floor(MAX_WAL_BYTES / (pageSize + 24));
}
/** Quiet after the last commit before the worker merges search segments (search-upkeep.ts). */
export const QUIET_MS = 250;
/**
 * Merging goes in bursts of at most BURST_MS of steps, then PAUSE_MS without the lock (and a
 * checkpoint of what the burst wrote). A write of this process stops a burst at once (it says so
 * before asking for the lock); a writer in another process cannot, so the pauses give it turns.
 */
export const BURST_MS = 8;
export const PAUSE_MS = 20;

// Shared Int32 slots: commits by the main connection, the worker's request that the main connection
// take the log-restarting checkpoint, a stop flag, checkpoints and finished search merges the worker
// has run (for tests and diagnostics), writes the main connection has begun (a merge step yields to
// them), catch-ups the worker has run, and (test hook only) checkpoints asked for and run.
export const SLOT = { COMMITS: 0, RESTART: 1, STOP: 2, RUNS: 3, TIDIED: 4, WRITES: 5, CATCH_UPS: 6, STEP: 7, STEPPED: 8 } as const;
export const SLOTS = 9;

export interface CheckpointWorkerData {
  /** The database file the worker opens its own connection to. */
  file: string;
  /** better-sqlite3's module, as the main thread loaded it (native.ts picks the build). */
  modulePath: string;
  /** SLOTS Int32 slots. */
  control: SharedArrayBuffer;
  /** The test hook (checkpointerTesting): one checkpoint per step asked for, nothing else. */
  manual: boolean;
}
