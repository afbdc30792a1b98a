/**
 * `cairn token create | list | revoke`: API tokens for `cairn serve`, registered through the CLI's
 * extension list (src/cli/extensions.ts). The secret is printed once; only its hash is stored.
 */
import type { Command } from 'commander';
import { systemClock } from '../core/ports.js';
import { createToken, listTokens, revokeToken, type TokenInfo, type TokenScope } from '../core/services/tokens.js';

/** The slice of the CLI runtime these commands use (structural, so http does not import the cli adapter). */
interface Runtime {
  globals(cmd: Command): { db?: string | undefined; json?: boolean | undefined };
  openSession(g: { db?: string | undefined }, opts: { write: boolean }): { ctx: { store: import('../core/ports.js').Store; actor: string }; close(): Promise<void> };
  print<T>(out: T, json: boolean | undefined, human: (out: T) => string): void;
  table(headers: string[], rows: string[][]): string;
  time(iso: string): string;
}

/** The token list for people: a header row, then one aligned row per token (times local and relative). */
function tokenTable(rt: Runtime, tokens: TokenInfo[]): string {
  const revoked = tokens.some((t) => t.revokedAt);
  const rows = tokens.map((t) => [
    t.name,
    t.scope,
    t.projects ? t.projects.join(',') : 'all',
    `${t.prefix}…`,
    rt.time(t.createdAt),
    t.lastUsedAt ? rt.time(t.lastUsedAt) : 'never',
    ...(revoked ? [t.revokedAt ? rt.time(t.revokedAt) : ''] : []),
  ]);
  return rt.table(['NAME', 'SCOPE', 'PROJECTS', 'PREFIX', 'CREATED', 'LAST USED', ...(revoked ? ['REVOKED'] : [])], rows);
}

async function withSession<T>(rt: Runtime, cmd: Command, write: boolean, fn: (ctx: Parameters<typeof createToken>[0]) => Promise<T>): Promise<T> {
  const s = rt.openSession(rt.globals(cmd), { write });
  try {
    return await fn({ store: s.ctx.store, clock: systemClock, actor: s.ctx.actor });
  } finally {
    await s.close();
  }
}

export function registerTokenCommands(group: Command, rt: Runtime): void {
  group
    .command('create')
    .description('Create a bearer token; its secret is shown once')
    .requiredOption('--name <name>', 'a label for the token (letters, digits, . _ : @ -)')
    .option(
      '--scope <scope>',
      "read (read operations only), write (everything, acting as the token's name), admin (write, and may act as any actor) or metrics (only /metrics, for a Prometheus scraper)",
      'read',
    )
    .option('--project <key>', 'limit the token to this project: it reaches no other on any surface (repeat for several)', (v: string, prev: string[] = []) => [...prev, v])
    .addHelpText(
      'after',
      '\nExamples:\n  cairn token create --name ci-bot --scope read\n  cairn token create --name laptop --scope write\n  cairn token create --name web-agent --scope write --project WEB\n  cairn token create --name ci --scope admin   # may send X-Cairn-Actor: agent:NAME\n  cairn token create --name prometheus --scope metrics',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const o = cmd.opts<{ name: string; scope: string; project?: string[] }>();
      const out = await withSession(rt, cmd, true, (ctx) => createToken(ctx, { name: o.name, scope: o.scope as TokenScope, ...(o.project ? { projects: o.project } : {}) }));
      rt.print(out, rt.globals(cmd).json, (r) =>
        [
          `Created ${r.token.scope} token "${r.token.name}"${r.token.projects ? `, limited to ${r.token.projects.join(', ')}` : ''}. Copy the secret now; it is not shown again:`,
          '',
          `  ${r.secret}`,
          '',
          'Send it as: Authorization: Bearer <secret>',
        ].join('\n'),
      );
    });
  group
    .command('list')
    .description('List tokens (never their secrets)')
    .option('--all', 'include revoked tokens')
    .action(async (_o: unknown, cmd: Command) => {
      const all = Boolean(cmd.opts<{ all?: boolean }>().all);
      const tokens = await withSession(rt, cmd, false, (ctx) => listTokens(ctx, { includeRevoked: all }));
      rt.print({ tokens }, rt.globals(cmd).json, (r) =>
        r.tokens.length ? tokenTable(rt, r.tokens) : 'No tokens: cairn serve accepts loopback requests without one. Create one with cairn token create --name NAME --scope read|write',
      );
    });
  group
    .command('revoke')
    .description('Revoke a token by name or id; requests using it get 401 at once')
    .argument('<name-or-id>', 'the token to revoke')
    .action(async (ref: string, _o: unknown, cmd: Command) => {
      const token = await withSession(rt, cmd, true, (ctx) => revokeToken(ctx, ref));
      rt.print({ token }, rt.globals(cmd).json, (r) => `Revoked token "${r.token.name}".`);
    });
}
