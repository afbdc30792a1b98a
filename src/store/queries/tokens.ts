/** API token rows: insert, list, revoke, record last use. Secrets never reach this layer, only their hashes. */
import type { Kysely, Selectable } from 'kysely';
import type { TokenRow } from '../../core/ports.js';
import type { ApiTokensTable, DB } from '../schema.js';

type Q = Kysely<DB>;

function toTokenRow(r: Selectable<ApiTokensTable>): TokenRow {
  return {
    id: r.id,
    name: r.name,
    scope: r.scope === 'write' || r.scope === 'admin' || r.scope === 'metrics' ? r.scope : 'read',
    hash: r.hash,
    prefix: r.prefix,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    projects: r.projects === null ? null : (JSON.parse(r.projects) as string[]),
  };
}

export async function insertToken(db: Q, t: TokenRow): Promise<void> {
  await db
    .insertInto('api_tokens')
    .values({
      id: t.id,
      name: t.name,
      scope: t.scope,
      hash: t.hash,
      prefix: t.prefix,
      created_at: t.createdAt,
      last_used_at: t.lastUsedAt,
      revoked_at: t.revokedAt,
      projects: t.projects === null ? null : JSON.stringify(t.projects),
    })
    .execute();
}

export async function listTokens(db: Q, includeRevoked: boolean): Promise<TokenRow[]> {
  let q = db.selectFrom('api_tokens').selectAll().orderBy('created_at');
  if (!includeRevoked) q = q.where('revoked_at', 'is', null);
  return (await q.execute()).map(toTokenRow);
}

export async function revokeToken(db: Q, id: string, at: string): Promise<boolean> {
  const r = await db.updateTable('api_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function touchToken(db: Q, id: string, at: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}
