/**
 * The `cairn serve` process's heap. Every MCP request leaves garbage that lives across its awaits
 * and so reaches V8's old space; V8 then lets the heap grow up to four times what is live before
 * collecting it, and keeps that size, so a server with many busy sessions holds several times the
 * memory its live objects need. Here growth is held to half the live set. Once sessions have ended
 * and the server has been quiet a moment, one full collection hands the freed pages back, instead of
 * the process keeping them until traffic comes (docs/benchmarks.md, footprint section).
 * Only the process that serves calls this; a library embedding the app keeps its own settings.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Old-space growth past the live set after a full collection, in percent (V8 picks 10–300). */
const HEAP_GROWING_PERCENT = 50;
/**
 * Quiet after the last session ended before the collection runs: V8 shrinks the young generation
 * only when its measure of allocation (over about the last 5 s) says the process is idle.
 */
const SETTLE_MS = 6_000;
/** At most one such collection per this long: it pauses the process for tens of milliseconds. */
const MIN_INTERVAL_MS = 10_000;

export interface HeapUpkeep {
  /** A session ended: collect once things settle (debounced, rate-limited). */
  sessionEnded(): void;
}

export function tuneHeap(): HeapUpkeep {
  let gc: (() => void) | undefined;
  try {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    // A context created after this flag has a gc() global; the main context does not.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
  } catch {
    // A runtime that refuses flags after start keeps V8's defaults; nothing else depends on them.
  }
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  const collect = () => {
    timer = undefined;
    last = Date.now();
    gc?.();
    // The first collection frees what the sessions held; a second one compacts the pages it left
    // sparse and hands them back (after one alone, the heap often stays at twice what is live).
    setTimeout(() => gc?.(), 200).unref();
  };
  return {
    sessionEnded() {
      if (!gc) return;
      if (timer) clearTimeout(timer);
      const wait = Math.max(SETTLE_MS, last + MIN_INTERVAL_MS - Date.now());
      timer = setTimeout(collect, wait);
      timer.unref();
    },
  };
}
