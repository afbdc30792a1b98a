/** API tokens for `cairn serve`: create (the secret is shown once), list, revoke, verify. Only a sha256 of each secret is stored. */
import { createHash, randomBytes } from 'node:crypto';
import { ulid } from 'ulid';
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import type { TokenRow } from '../ports.js';

export const TokenScope = z.enum(['read', 'write', 'admin']).describe('read: read ops only; write: everything, as the token\'s name; admin: write, and may act as any actor');
export type TokenScope = z.infer<typeof TokenScope>;

export const CreateTokenInput = lazy(() => z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._:@-]+$/, 'token name may use letters, digits and . _ : @ -'),
  scope: TokenScope.default('read'),
}));

/** What callers may see of a token: everything but the hash. */
export type TokenInfo = Omit<TokenRow, 'hash'>;

const SECRET_PREFIX = 'cairn_';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function info(row: TokenRow): TokenInfo {
  const { hash: _hash, ...rest } = row;
  return rest;
}

/** Creates a token and returns its secret; the secret cannot be recovered later. */
export async function createToken(ctx: Context, raw: z.input<ReturnType<typeof CreateTokenInput>>): Promise<{ token: TokenInfo; secret: string }> {
  const parsed = CreateTokenInput().safeParse(raw);
  if (!parsed.success) {
    const what = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    throw new CairnError('VALIDATION_ERROR', `Invalid token: ${what}. Nothing was created.`, { suggestions: ['cairn token create --name ci-bot --scope read'] });
  }
  const input = parsed.data;
  const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
  const row: TokenRow = {
    id: ulid(),
    name: input.name,
    scope: input.scope,
    hash: hashSecret(secret),
    prefix: secret.slice(0, SECRET_PREFIX.length + 6),
    createdAt: nowIso(ctx),
    lastUsedAt: null,
    revokedAt: null,
  };
  await ctx.store.write(async (tx) => {
    await tx.exclusive('tokens');
    if ((await tx.listTokens(false)).some((t) => t.name === row.name)) {
      throw new CairnError('TOKEN_EXISTS', `A live token named "${row.name}" already exists.`, {
        suggestions: [`cairn token revoke ${row.name}`, 'Choose another --name'],
      });
    }
    await tx.insertToken(row);
  });
  return { token: info(row), secret };
}

export async function listTokens(ctx: Context, opts: { includeRevoked?: boolean } = {}): Promise<TokenInfo[]> {
  return (await ctx.store.read((tx) => tx.listTokens(opts.includeRevoked ?? false))).map(info);
}

/** Revokes a live token by id or name. */
export async function revokeToken(ctx: Context, ref: string): Promise<TokenInfo> {
  return ctx.store.write(async (tx) => {
    const live = await tx.listTokens(false);
    const row = live.find((t) => t.id === ref || t.name === ref);
    if (!row) {
      throw new CairnError('TOKEN_NOT_FOUND', `No live token has the id or name "${ref}".`, {
        suggestions: ['cairn token list shows the live tokens'],
      });
    }
    const at = nowIso(ctx);
    await tx.revokeToken(row.id, at);
    return info({ ...row, revokedAt: at });
  });
}

/** Live tokens keyed by hash, for servers that check every request (reload when the store's change token moves). */
export async function liveTokensByHash(ctx: Pick<Context, 'store'>): Promise<Map<string, TokenInfo>> {
  const rows = await ctx.store.read((tx) => tx.listTokens(false));
  return new Map(rows.map((r) => [r.hash, info(r)]));
}

export async function touchToken(ctx: Context, id: string): Promise<void> {
  await ctx.store.write((tx) => tx.touchToken(id, nowIso(ctx)));
}
