/**
 * Writes that happen once per idempotency key. The key is checked and recorded inside the write's
 * own transaction (the store is wrapped for the call), so a repeat — an outbox redelivered after a
 * crash, two deliveries racing, a client retry — finds it and changes nothing, on every engine.
 */
import type { Context } from '../context.js';
import { nodeCrypto } from '../lazy-builtins.js';
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

/** How long a key is remembered unless the context says otherwise (handoff keys are kept for good). */
export const DEFAULT_KEY_RETENTION_DAYS = 7;
const KEPT_OP = 'submit_handoff';
/** Expired keys forgotten per keyed write: bounded work that still outpaces any rate of new keys. */
const PURGE_BATCH = 20;

/** What a keyed call names: the key, the op it runs, and its input (fingerprinted: the same key with another input is refused). */
export interface KeyedCall {
  key: string;
  op: string;
  request: unknown;
}

/**
 * Runs `work` with a context whose first write transaction also checks and records the key. A key
 * seen before answers `{replayed: true, record}` without running anything more (reads `work` made
 * before its first write are harmless). A key first used for another op, or with another input, is
 * IDEMPOTENCY_KEY_REUSED. Keys are the caller's own (ctx.keyScope) and expire after
 * ctx.keyRetentionDays, except handoff keys.
 *
 * @example
 * const r = await withIdempotency(ctx, { key: 'outbox-01J…', op: 'add_comment', request: input }, (c) => addComment(c, input));
 * if ('replayed' in r) … // the comment was already added by an earlier delivery
 */
export async function withIdempotency<T>(ctx: Context, call: KeyedCall, work: (ctx: Context) => Promise<T>): Promise<T | Replay> {
  const { key, op } = call;
  const scope = ctx.keyScope ?? '';
  const fingerprint = fingerprintOf(op, call.request);
  let recorded = false;
  const base = ctx.store;
  const store: Store = {
    location: base.location,
    read: (fn) => base.read(fn),
    changeToken: () => base.changeToken(),
    projectsToken: () => base.projectsToken(),
    forgetLinks: () => base.forgetLinks?.() ?? false,
    close: () => base.close(),
    write: async (fn) => {
      if (recorded) return base.write(fn);
      // Marked recorded only once the write committed: a write that is rehearsed first (the one that
      // creates a SQLite workspace runs once on an empty schema and rolls back) records it for real.
      const out = await base.write(async (tx) => {
        const now = ctx.clock.now();
        const expiredBefore = new Date(now.getTime() - (ctx.keyRetentionDays ?? DEFAULT_KEY_RETENTION_DAYS) * 86_400_000).toISOString();
        let prior = await tx.idempotency.get(scope, key);
        if (prior && prior.op !== KEPT_OP && prior.createdAt < expiredBefore) {
          await tx.idempotency.remove(scope, key);
          prior = undefined;
        }
        if (prior) refuseReuse(prior, op, fingerprint);
        if (prior) throw new ReplaySignal(prior);
        let taskUid: string | null = null;
        const result = await fn(watched(tx, (uid) => (taskUid ??= uid)));
        await tx.idempotency.purge(expiredBefore, KEPT_OP, PURGE_BATCH);
        await tx.idempotency.put({ scope, key, op, taskUid, createdAt: now.toISOString(), fingerprint });
        return result;
      });
      recorded = true;
      return out;
    },
  };
  try {
    return await work({ ...ctx, store });
  } catch (err) {
    if (err instanceof ReplaySignal) return { replayed: true, record: err.record };
    throw err;
  }
}

function refuseReuse(prior: IdempotencyRecord, op: string, fingerprint: string): void {
  const what =
    prior.op !== op
      ? `a ${prior.op}; it cannot also name a ${op}`
      : prior.fingerprint !== null && prior.fingerprint !== fingerprint
        ? `a ${op} with other arguments; a repeat must send the same ones`
        : undefined;
  if (!what) return;
  throw new CairnError('IDEMPOTENCY_KEY_REUSED', `The idempotency key "${prior.key}" was first used (${prior.createdAt}) for ${what}. Nothing was changed.`, {
    suggestions: ['Use a new key for each distinct write', 'To repeat the first write, send exactly its arguments again'],
    details: { key: prior.key, op: prior.op },
  });
}

/** A stable hash of the op and its input: object keys sorted, so the order a client sent them in does not count. */
function fingerprintOf(op: string, request: unknown): string {
  return nodeCrypto().createHash('sha256').update(op).update('\0').update(stable(request)).digest('base64url').slice(0, 22);
}

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export function isReplay(v: unknown): v is Replay {
  return typeof v === 'object' && v !== null && (v as Replay).replayed === true && 'record' in v;
}
