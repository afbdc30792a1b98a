/**
 * Follows the activity log across processes: polls the store's cheap change token and, when it
 * moves, reads the events after the last seen seq. Live views (MCP subscriptions, SSE) share it.
 */
import type { ActivityEvent } from '../model/activity.js';
import type { Store } from '../ports.js';

export interface ChangeFeed {
  /** Registers a listener for batches of new events; returns an unsubscribe function. */
  subscribe(listener: (events: ActivityEvent[]) => void): () => void;
  /** Seq of the newest event delivered so far. */
  readonly lastSeq: number;
  /** Checks for changes now (also runs on the timer). */
  poll(): Promise<void>;
  close(): void;
}

export interface ChangeFeedOptions {
  /** How often to look for commits by other processes; keep well under the 250 ms delivery target. */
  intervalMs?: number;
  /** Start after this seq; default: the current end of the log (only new changes). */
  fromSeq?: number;
  onError?: (err: unknown) => void;
}

export async function followChanges(store: Store, opts: ChangeFeedOptions = {}): Promise<ChangeFeed> {
  const listeners = new Set<(events: ActivityEvent[]) => void>();
  let lastSeq = opts.fromSeq ?? (await store.read((tx) => tx.lastSeq()));
  let token = await store.changeToken();
  let polling: Promise<void> | null = null;

  const drain = async (): Promise<void> => {
    for (;;) {
      const batch = await store.read((tx) => tx.events({ afterSeq: lastSeq, limit: 500 }));
      if (batch.length === 0) return;
      lastSeq = batch[batch.length - 1]!.seq;
      for (const l of [...listeners]) l(batch);
      if (batch.length < 500) return;
    }
  };

  const poll = (): Promise<void> => {
    polling ??= (async () => {
      try {
        const next = await store.changeToken();
        if (next === token) return;
        token = next;
        await drain();
      } catch (err) {
        opts.onError?.(err);
      } finally {
        polling = null;
      }
    })();
    return polling;
  };

  const timer = setInterval(() => void poll(), opts.intervalMs ?? 100);
  timer.unref();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get lastSeq() {
      return lastSeq;
    },
    poll,
    close: () => clearInterval(timer),
  };
}
