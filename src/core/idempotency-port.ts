/**
 * Idempotency keys remembered by the store: a write that carries a key records it in the same
 * transaction, so a repeat of that write (an outbox redelivery, a client retry) finds it and changes
 * nothing. Engines implement this beside the Tx port (store/queries/idempotency.ts).
 *
 * A key belongs to a scope (the token that sent it; '' for callers without one): the same key from
 * another token is another key. It remembers a fingerprint of its first request, and expires after a
 * retention period, except a handoff's, which the handoff record keeps.
 */

export interface IdempotencyRecord {
  scope: string;
  key: string;
  /** The op the key was first used with; reusing a key for another op is refused. */
  op: string;
  /** The task the write created or changed, when it touched one (what a replay answers with). */
  taskUid: string | null;
  createdAt: string;
  /** A hash of the first request's input (null for keys recorded before fingerprints were kept). */
  fingerprint: string | null;
}

export interface IdempotencyTx {
  get(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Records a key; the caller has checked it is new inside the same write transaction. */
  put(record: IdempotencyRecord): Promise<void>;
  /** Forgets one key (an expired one about to be used again). */
  remove(scope: string, key: string): Promise<void>;
  /** Forgets up to `limit` keys recorded before `before`, keeping those of `keepOp`. */
  purge(before: string, keepOp: string, limit: number): Promise<void>;
}
