/**
 * Idempotency keys (core/idempotency-port.ts) over any Kysely database: one row per key, written in
 * the write's own transaction. The scope is stored in the key column ("scope\u001fkey"), so the primary
 * key keeps a key from one token apart from the same key from another; keys without a scope (local
 * callers, and every key recorded before scopes) are stored as they are.
 */
import type { Kysely } from 'kysely';
import type { IdempotencyRecord, IdempotencyTx } from '../../core/idempotency-port.js';
import type { DB } from '../schema.js';

const SEP = '\u001f';
const stored = (scope: string, key: string): string => (scope ? `${scope}${SEP}${key}` : key);

export class KyselyIdempotency implements IdempotencyTx {
  constructor(private readonly db: Kysely<DB>) {}

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const r = await this.db.selectFrom('idempotency_keys').selectAll().where('key', '=', stored(scope, key)).executeTakeFirst();
    return r ? { scope, key, op: r.op, taskUid: r.task_uid, createdAt: r.created_at, fingerprint: r.fingerprint ?? null } : undefined;
  }

  async put(r: IdempotencyRecord): Promise<void> {
    await this.db
      .insertInto('idempotency_keys')
      .values({ key: stored(r.scope, r.key), op: r.op, task_uid: r.taskUid, created_at: r.createdAt, fingerprint: r.fingerprint })
      .execute();
  }

  async remove(scope: string, key: string): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('key', '=', stored(scope, key)).execute();
  }

  async purge(before: string, keepOp: string, limit: number): Promise<void> {
    const old = this.db.selectFrom('idempotency_keys').select('key').where('created_at', '<', before).where('op', '<>', keepOp).limit(limit);
    await this.db.deleteFrom('idempotency_keys').where('key', 'in', old).execute();
  }
}
