/** API tokens for `cairn serve`: create, list, revoke. Only a caller that may administer the server runs them (Op.admin). */
import * as z from 'zod';
import { lazy } from '../core/model/lazy.js';
import { CreateTokenInput, createToken, listTokens, revokeToken, TokenScope } from '../core/services/tokens.js';
import { defineOp } from './op.js';

const TokenView = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string().describe('Its label; a write token acts under it'),
    scope: TokenScope,
    prefix: z.string().describe("The secret's first characters, to tell tokens apart (never the secret)"),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    projects: z.array(z.string()).nullable().describe('Keys of the only projects it reaches; null: every project'),
  }),
);

export const createTokenOp = defineOp({
  name: 'create_token',
  toolset: 'admin',
  title: 'Create an API token',
  description: 'Create a bearer token for this server, optionally limited to projects. The answer holds its secret, shown this once: only its hash is kept.',
  input: CreateTokenInput,
  output: () => z.object({ token: TokenView(), secret: z.string().describe('Send as Authorization: Bearer <secret>') }),
  readOnly: false,
  admin: true,
  rest: { method: 'POST', path: '/tokens' },
  run: (ctx, input) => createToken(ctx, input),
});

export const listTokensOp = defineOp({
  name: 'list_tokens',
  toolset: 'admin',
  title: 'List API tokens',
  description: "This server's tokens with scope, projects and last use; never their secrets. Revoked ones only with includeRevoked.",
  input: () => z.object({ includeRevoked: z.boolean().optional().describe('Also list revoked tokens') }),
  output: () => z.object({ tokens: z.array(TokenView()) }),
  readOnly: true,
  idempotent: true,
  admin: true,
  rest: { method: 'GET', path: '/tokens' },
  run: async (ctx, input) => ({ tokens: await listTokens(ctx, input) }),
});

export const revokeTokenOp = defineOp({
  name: 'revoke_token',
  toolset: 'admin',
  title: 'Revoke an API token',
  description: 'Revoke a live token by name or id: requests with it get 401 at once, and its open streams end. It stays in list_tokens with includeRevoked.',
  input: () => z.object({ token: z.string().trim().min(1).max(64).describe("The token's name or id (not its secret)") }),
  output: () => z.object({ token: TokenView() }),
  readOnly: false,
  destructive: true,
  admin: true,
  // Not DELETE /tokens/:id: the token is kept (revokedAt set), and it may be named by name as well as id.
  rest: { method: 'POST', path: '/tokens/revoke' },
  run: async (ctx, input) => ({ token: await revokeToken(ctx, input.token) }),
});
