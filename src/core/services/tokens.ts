/** API tokens for `cairn serve`: create (the secret is shown once), list, revoke, verify. Only a sha256 of each secret is stored. */
import { nodeCrypto } from '../lazy-builtins.js';
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { newUlid, ProjectKey } from '../model/ids.js';
import type { ProjectRow, TokenRow } from '../ports.js';

export const TokenScope = z
  .enum(['read', 'write', 'admin', 'metrics'])
  .describe("read: read ops only; write: everything, as the token's name; admin: write, and may act as any actor; metrics: /metrics and nothing else");
export type TokenScope = z.infer<typeof TokenScope>;

export const CreateTokenInput = lazy(() =>
  z.object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9._:@-]+$/, 'token name may use letters, digits and . _ : @ -'),
    scope: TokenScope.default('read'),
    projects: z.array(ProjectKey).max(100).optional().describe('Limit the token to these projects (keys): it reaches nothing else on any surface'),
  }),
);

/** A live token as servers check it: everything but the hash, its projects as uids (and their keys, for a default). */
export type LiveToken = Omit<TokenRow, 'hash'> & { projectKeys: string[] | null };
/** What callers may see of a token: everything but the hash, its projects by key (null: every project). */
export type TokenInfo = Omit<TokenRow, 'hash' | 'projects'> & { projects: string[] | null };

const SECRET_PREFIX = 'cairn_';

export function hashSecret(secret: string): string {
  return nodeCrypto().createHash('sha256').update(secret, 'utf8').digest('hex');
}

function keysOf(uids: string[] | null, projects: ProjectRow[]): string[] | null {
  const key = new Map(projects.map((p) => [p.uid, p.key]));
  return uids === null ? null : uids.map((uid) => key.get(uid) ?? uid);
}

function live(row: TokenRow, projects: ProjectRow[]): LiveToken {
  const { hash: _hash, ...rest } = row;
  return { ...rest, projectKeys: keysOf(row.projects, projects) };
}

/** A project the limit names may since have been purged from the workspace: it shows as its uid. */
function info(row: TokenRow, projects: ProjectRow[]): TokenInfo {
  const { hash: _hash, ...rest } = row;
  return { ...rest, projects: keysOf(row.projects, projects) };
}

/** Creates a token and returns its secret; the secret cannot be recovered later. */
export async function createToken(ctx: Context, raw: z.input<ReturnType<typeof CreateTokenInput>>): Promise<{ token: TokenInfo; secret: string }> {
  const parsed = CreateTokenInput().safeParse(raw);
  if (!parsed.success) {
    const what = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    throw new CairnError('VALIDATION_ERROR', `Invalid token: ${what}. Nothing was created.`, {
      suggestions: ['cairn token create --name ci-bot --scope read', 'cairn token create --name web-agent --scope write --project WEB'],
    });
  }
  const input = parsed.data;
  if (input.projects?.length === 0) {
    throw new CairnError('VALIDATION_ERROR', 'A token limited to no project would reach nothing. Nothing was created.', {
      suggestions: ['Name at least one project: --project KEY', 'Leave out --project for a token that reaches every project'],
    });
  }
  const secret = SECRET_PREFIX + nodeCrypto().randomBytes(32).toString('base64url');
  const row: TokenRow = {
    id: newUlid(),
    name: input.name,
    scope: input.scope,
    hash: hashSecret(secret),
    prefix: secret.slice(0, SECRET_PREFIX.length + 6),
    createdAt: nowIso(ctx),
    lastUsedAt: null,
    revokedAt: null,
    projects: null,
  };
  const projects = await ctx.store.write(async (tx) => {
    await tx.exclusive('tokens');
    const all = await tx.listProjects(true);
    if (input.projects) {
      const byKey = new Map(all.map((p) => [p.key, p]));
      const missing = input.projects.filter((k) => !byKey.has(k));
      if (missing.length) {
        throw new CairnError('PROJECT_NOT_FOUND', `No project has the key ${missing.map((k) => `"${k}"`).join(', ')}: a token can be limited only to projects that exist. Nothing was created.`, {
          suggestions: ['cairn project list shows the keys', ...(all.length ? [`--project ${all[0]!.key}`] : [])],
        });
      }
      row.projects = [...new Set(input.projects.map((k) => byKey.get(k)!.uid))];
    }
    if ((await tx.listTokens(false)).some((t) => t.name === row.name)) {
      throw new CairnError('TOKEN_EXISTS', `A live token named "${row.name}" already exists.`, {
        suggestions: [`cairn token revoke ${row.name}`, 'Choose another --name'],
      });
    }
    await tx.insertToken(row);
    return all;
  });
  return { token: info(row, projects), secret };
}

export async function listTokens(ctx: Context, opts: { includeRevoked?: boolean } = {}): Promise<TokenInfo[]> {
  return ctx.store.read(async (tx) => {
    const projects = await tx.listProjects(true);
    return (await tx.listTokens(opts.includeRevoked ?? false)).map((r) => info(r, projects));
  });
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
    return info({ ...row, revokedAt: at }, await tx.listProjects(true));
  });
}

/** Live tokens keyed by hash, for servers that check every request (reload when the store's change token moves). */
export async function liveTokensByHash(ctx: Pick<Context, 'store'>): Promise<Map<string, LiveToken>> {
  return ctx.store.read(async (tx) => {
    const rows = await tx.listTokens(false);
    const projects = rows.some((r) => r.projects) ? await tx.listProjects(true) : [];
    return new Map(rows.map((r) => [r.hash, live(r, projects)]));
  });
}

export async function touchToken(ctx: Context, id: string): Promise<void> {
  await ctx.store.write((tx) => tx.touchToken(id, nowIso(ctx)));
}
