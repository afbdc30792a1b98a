/**
 * `cairn token create | list | revoke`: API tokens for `cairn serve`, registered through the CLI's
 * extension list (src/cli/extensions.ts). The secret is printed once; only its hash is stored. Each
 * command runs its op (src/ops/token-ops.ts), so with --remote it manages the remote server's tokens.
 */
import type { Command } from 'commander';
import type { TokenInfo, TokenScope } from '../core/services/tokens.js';
import type { OpContext } from '../ops/op.js';
import { loadOp } from '../ops/op-modules.js';
import { runOp } from '../ops/run-op.js';

/** The slice of the CLI runtime these commands use (structural, so http does not import the cli adapter). */
interface Runtime {
  globals(cmd: Command): { db?: string | undefined; remote?: string | undefined; json?: boolean | undefined };
  openSession(g: { db?: string | undefined; remote?: string | undefined }, opts: { write: boolean }): { ctx: OpContext; close(): Promise<void> };
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

/** Runs a token op in the command's session: the local workspace, or the remote server under --remote / CAIRN_URL. */
async function runTokenOp<T>(rt: Runtime, cmd: Command, name: string, args: Record<string, unknown>): Promise<T> {
  const op = (await loadOp(name))!;
  const s = rt.openSession(rt.globals(cmd), { write: !op.readOnly });
  try {
    return (await runOp(op, s.ctx, args)) as T;
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
      const out = await runTokenOp<{ token: TokenInfo; secret: string }>(rt, cmd, 'create_token', { name: o.name, scope: o.scope as TokenScope, ...(o.project ? { projects: o.project } : {}) });
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
      const out = await runTokenOp<{ tokens: TokenInfo[] }>(rt, cmd, 'list_tokens', { includeRevoked: all });
      rt.print(out, rt.globals(cmd).json, (r) =>
        r.tokens.length ? tokenTable(rt, r.tokens) : 'No tokens: cairn serve accepts loopback requests without one. Create one with cairn token create --name NAME --scope read|write',
      );
    });
  group
    .command('revoke')
    .description('Revoke a token by name or id; requests using it get 401 at once')
    .argument('<name-or-id>', 'the token to revoke')
    .action(async (ref: string, _o: unknown, cmd: Command) => {
      const out = await runTokenOp<{ token: TokenInfo }>(rt, cmd, 'revoke_token', { token: ref });
      rt.print(out, rt.globals(cmd).json, (r) => `Revoked token "${r.token.name}".`);
    });
}
