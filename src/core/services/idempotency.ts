/**
 * Writes that happen once per idempotency key. The key is checked and recorded inside the write's
 * own transaction (the store is wrapped for the call), so a repeat — an outbox redelivered after a
 * crash, two deliveries racing, a client retry — finds it and changes nothing, on every engine.
 */
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import type { IdempotencyRecord } from '../idempotency-port.js';
import type { Store, Tx } from '../ports.js';

/** What a call made with a key that was already used gets: the record (which task it touched). */
export type Replay = { replayed: true; record: IdempotencyRecord };

class ReplaySignal extends Error {
  constructor(readonly record: IdempotencyRecord) {
    super('idempotent replay');
  }
}

/** The transaction with its event appends watched: the first task an event names is what the key remembers. */
function watched(tx: Tx, touched: (uid: string) => void): Tx {
  return new Proxy(tx, {
    get(target, prop) {
      if (prop === 'appendEvent') {
        return (e: Parameters<Tx['appendEvent']>[0]) => {
          if (e.taskUid) touched(e.taskUid);
          return target.appendEvent(e);
        };
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/**
 * Runs `work` with a context whose first write transaction also checks and records `key` for `op`.
 * A key seen before answers `{replayed: true, record}` without running anything more (reads `work`
 * made before its first write are harmless). A key first used for another op is IDEMPOTENCY_KEY_REUSED.
 *
 * @example
 * const r = await withIdempotency(ctx, 'outbox-01J…', 'add_comment', (c) => addComment(c, input));
 * if ('replayed' in r) … // the comment was already added by an earlier delivery
 */
export async function withIdempotency<T>(ctx: Context, key: string, op: string, work: (ctx: Context) => Promise<T>): Promise<T | Replay> {
  let recorded = false;
  const base = ctx.store;
  const store: Store = {
    location: base.location,
    read: (fn) => base.read(fn),
    changeToken: () => base.changeToken(),
    projectsToken: () => base.projectsToken(),
    forgetLinks: () => base.forgetLinks?.() ?? false,
    close: () => base.close(),
    write: (fn) =>
      base.write(async (tx) => {
        if (recorded) return fn(tx);
        const prior = await tx.idempotency.get(key);
        if (prior) {
          if (prior.op !== op) {
            throw new CairnError('IDEMPOTENCY_KEY_REUSED', `The idempotency key "${key}" was first used for ${prior.op} (${prior.createdAt}); it cannot also name a ${op}. Nothing was changed.`, {
              suggestions: ['Use a new key for each distinct write'],
              details: { key, op: prior.op },
            });
          }
          throw new ReplaySignal(prior);
        }
        let taskUid: string | null = null;
        const out = await fn(watched(tx, (uid) => (taskUid ??= uid)));
        await tx.idempotency.put({ key, op, taskUid, createdAt: nowIso(ctx) });
        recorded = true;
        return out;
      }),
  };
  try {
    return await work({ ...ctx, store });
  } catch (err) {
    if (err instanceof ReplaySignal) return { replayed: true, record: err.record };
    throw err;
  }
}

export function isReplay(v: unknown): v is Replay {
  return typeof v === 'object' && v !== null && (v as Replay).replayed === true && 'record' in v;
}
