/** Idempotency keys (core/idempotency-port.ts) over any Kysely database: one row per key, written in the write's own transaction. */
import type { Kysely } from 'kysely';
import type { IdempotencyRecord, IdempotencyTx } from '../../core/idempotency-port.js';
import type { DB } from '../schema.js';

export class KyselyIdempotency implements IdempotencyTx {
  constructor(private readonly db: Kysely<DB>) {}

  async get(key: string): Promise<IdempotencyRecord | undefined> {
    const r = await this.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst();
    return r ? { key: r.key, op: r.op, taskUid: r.task_uid, createdAt: r.created_at } : undefined;
  }

  async put(r: IdempotencyRecord): Promise<void> {
    await this.db.insertInto('idempotency_keys').values({ key: r.key, op: r.op, task_uid: r.taskUid, created_at: r.createdAt }).execute();
  }
}
