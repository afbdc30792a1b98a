/**
 * Idempotency keys remembered by the store: a write that carries a key records it in the same
 * transaction, so a repeat of that write (an outbox redelivery, a client retry) finds it and changes
 * nothing. Engines implement this beside the Tx port (store/queries/idempotency.ts).
 */

export interface IdempotencyRecord {
  key: string;
  /** The op the key was first used with; reusing a key for another op is refused. */
  op: string;
  /** The task the write created or changed, when it touched one (what a replay answers with). */
  taskUid: string | null;
  createdAt: string;
}

export interface IdempotencyTx {
  get(key: string): Promise<IdempotencyRecord | undefined>;
  /** Records a key; the caller has checked it is new inside the same write transaction. */
  put(record: IdempotencyRecord): Promise<void>;
}
