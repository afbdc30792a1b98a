/**
 * Follows the activity log across processes: polls the store's cheap change token and, when it
 * moves, reads the events after the last seen seq. Live views (MCP subscriptions, SSE) share it.
 *
 * It reads whole events only for listeners that want them now. A server under a steady stream of
 * writes gains many events per poll, and reading them all (three joins, the changes JSON) would hold
 * its main thread ten times a second for a client subscribed to nothing. The seq and type of each
 * new event, a cheap read, decide what else is read.
 */
import type { ActivityEvent } from '../model/activity.js';
import type { Store } from '../ports.js';

export interface FeedListenerOptions {
  /** Only events of these types, and the batch is read only when one of them is in it. Default: every event. */
  types?: ReadonlySet<string>;
  /** Asked before each batch; false skips this batch for the listener. Default: always. */
  active?: () => boolean;
}

type Listener = (events: ActivityEvent[]) => void;

export interface ChangeFeed {
  /** Registers a listener for batches of new events; returns an unsubscribe function. */
  subscribe(listener: Listener, opts?: FeedListenerOptions): () => void;
  /** Seq of the newest event delivered so far. */
  readonly lastSeq: number;
  /** Checks for changes now (also runs on the timer). */
  poll(): Promise<void>;
  /** Stops polling; resolves once a poll in flight has ended, so the store can close after it. */
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** How often to look for commits by other processes; keep well under the 250 ms delivery target. */
  intervalMs?: number;
  /** Start after this seq; default: the current end of the log (only new changes). */
  fromSeq?: number;
  onError?: (err: unknown) => void;
  /** Called once when a poll succeeds after one or more failed (the database is back). */
  onRecovered?: () => void;
}

const BATCH = 500;

export async function followChanges(store: Store, opts: ChangeFeedOptions = {}): Promise<ChangeFeed> {
  const listeners = new Map<Listener, FeedListenerOptions>();
  let lastSeq = opts.fromSeq ?? (await store.read((tx) => tx.lastSeq()));
  let token: string | undefined = await store.changeToken();
  let polling: Promise<void> | null = null;

  // At least once: lastSeq moves past a batch only after every listener that wanted it was handed
  // it, so a read that fails leaves the batch to the next poll (which reads again, since the token
  // is forgotten on failure). A listener that throws is reported and does not hold up the others.
  const drain = async (): Promise<void> => {
    for (;;) {
      const heads = await store.read((tx) => tx.eventHeads(lastSeq, BATCH));
      if (heads.length === 0) return;
      const from = lastSeq;
      const to = heads[heads.length - 1]!.seq;
      const wanting = [...listeners].filter(([, o]) => (o.active?.() ?? true) && (!o.types || heads.some((h) => o.types!.has(h.type))));
      if (wanting.length > 0) {
        // Events committed since the heads were read wait for the next batch.
        const batch = (await store.read((tx) => tx.events({ afterSeq: from, limit: BATCH }))).filter((e) => e.seq <= to);
        for (const [listener, o] of wanting) {
          const mine = o.types ? batch.filter((e) => o.types!.has(e.type)) : batch;
          if (mine.length === 0 || !listeners.has(listener)) continue;
          try {
            listener(mine);
          } catch (err) {
            opts.onError?.(err);
          }
        }
      }
      lastSeq = to;
      if (heads.length < BATCH) return;
    }
  };

  // A poll asked for while one runs may come after a commit that one has missed: it runs again once
  // the current one ends (at most one waits), so "poll now" always covers what committed before it.
  let queued: Promise<void> | null = null;
  let failing = false;
  let closed = false;
  const poll = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (polling !== null) return (queued ??= polling.then(() => ((queued = null), poll())));
    polling = (async () => {
      let next: string | undefined;
      try {
        next = await store.changeToken();
        if (failing) {
          failing = false;
          opts.onRecovered?.();
        }
        if (next === token) return;
        token = next;
        await drain();
      } catch (err) {
        // Not caught up: the next poll drains again even if nothing else commits meanwhile.
        if (next !== undefined && token === next) token = undefined;
        // A poll that outlives close() fails on a closing store: that is shutdown, not an outage.
        if (closed) return;
        failing = true;
        opts.onError?.(err);
      } finally {
        polling = null;
      }
    })();
    return polling;
  };

  const timer = setInterval(() => void poll(), opts.intervalMs ?? 100);
  timer.unref();
  // An engine that notifies commits (PostgreSQL) wakes the feed at once; the timer stays as the
  // fallback for a notification lost with a dropped connection.
  const unlisten = store.onCommit?.(() => void poll());
  return {
    subscribe(listener, o = {}) {
      listeners.set(listener, o);
      return () => listeners.delete(listener);
    },
    get lastSeq() {
      return lastSeq;
    },
    poll,
    close: async () => {
      closed = true;
      clearInterval(timer);
      unlisten?.();
      await polling?.catch(() => undefined);
    },
  };
}
