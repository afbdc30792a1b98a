/** `cairn sync` (deliver the outbox now) and `cairn outbox` (what waits, what the server refused; retry one), as CLI extensions. */
import type { Command } from 'commander';
import { CairnError } from '../core/errors.js';
import type { OpContext } from '../ops/op.js';
import { Outbox, outboxDir } from './outbox.js';
import type { FlushReport, HttpRemoteRunner } from './remote-runner.js';
import { workspaceRootOf } from '../core/places/repo-paths.js';

/** What the CLI hands an extension (src/cli/extensions.ts CliRuntime), as far as these commands use it. */
interface CliRuntime {
  globals(cmd: Command): { json?: boolean | undefined };
  openSession(g: never, opts: { write: boolean }): { ctx: OpContext };
  print<T>(out: T, json: boolean | undefined, human: (out: T) => string): void;
}

function localOutbox(): Outbox {
  return new Outbox(outboxDir(process.cwd(), process.env, workspaceRootOf(process.cwd())));
}

function remoteRunner(rt: CliRuntime, cmd: Command, to: string | undefined): HttpRemoteRunner {
  const session = rt.openSession({ ...rt.globals(cmd), ...(to ? { remote: to } : {}) } as never, { write: true });
  const runner = session.ctx.remote as HttpRemoteRunner | undefined;
  if (!runner) {
    throw new CairnError('VALIDATION_ERROR', 'cairn sync delivers the outbox to a remote server, and none is set. Nothing was sent.', {
      suggestions: ['CAIRN_URL=http://host:7420 cairn sync', 'cairn --remote http://host:7420 sync'],
    });
  }
  return runner;
}

/** Waits while another process (a running cairn mcp) holds the delivery lock, then delivers what remains. */
async function syncNow(runner: HttpRemoteRunner, retarget: boolean): Promise<FlushReport> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await runner.flush({ retarget });
    if (r.stopped !== 'another process is delivering this outbox' || Date.now() > deadline) return r;
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

export function registerSyncCommand(cmd: Command, rt: CliRuntime): void {
  cmd
    .option('--to <url>', 'deliver to this server, also the entries recorded for another one')
    .addHelpText(
      'after',
      '\nEach entry remembers the server it was recorded for; cairn sync delivers only those (the others are listed).\n  cairn sync\n  cairn sync --to https://cairn.example.com   (after the server moved)',
    )
    .action(async (o: { to?: string }, c: Command) => {
      const runner = remoteRunner(rt, c, o.to);
      const report = await syncNow(runner, o.to !== undefined);
      await runner.close();
      rt.print(report, rt.globals(c).json, (r) =>
        [
          `${r.delivered.length} delivered${r.refused.length ? `, ${r.refused.length} refused (kept: cairn outbox)` : ''}, ${r.remaining} waiting.`,
          ...r.delivered.map((d) => `  ✓ ${d.id} ${d.op}${taskOf(d.result)}`),
          ...r.refused.map((d) => `  ✗ ${d.id} ${d.op}: ${d.error.code}: ${d.error.message}`),
          ...(r.elsewhere.length
            ? [`${r.elsewhere.length} recorded for another server, not sent: ${[...new Set(r.elsewhere.map((e) => e.url))].join(', ')}. cairn sync --to ${runner.url} delivers them to this one.`]
            : []),
          ...corruptLines(r.corrupt),
          ...(r.stopped ? [`Stopped: ${r.stopped}`] : []),
        ].join('\n'),
      );
      if (report.halted)
        throw new CairnError(report.halted.status === 429 ? 'BUSY' : 'FORBIDDEN', `Delivery stopped: ${report.stopped} ${report.remaining} entries wait in ${runner.outbox.dir}.`, {
          suggestions: ['cairn outbox  (what is waiting)'],
        });
      if (report.stopped && report.remaining > 0) throw runner.unreachable(report.stopped);
      if (report.corrupt.length) throw corruptError(report.corrupt);
    });
}

function taskOf(result: unknown): string {
  const r = result as { taskId?: string; task?: { id?: string } } | undefined;
  const id = r?.taskId ?? r?.task?.id;
  return id ? ` → ${id}` : '';
}

function corruptLines(corrupt: FlushReport['corrupt']): string[] {
  if (!corrupt.length) return [];
  return [`${corrupt.length} entry file(s) cannot be read and were not sent (fix or remove them):`, ...corrupt.map((x) => `  ! ${x.file}: ${x.error}`)];
}

function corruptError(corrupt: FlushReport['corrupt']): CairnError {
  return new CairnError('VALIDATION_ERROR', `${corrupt.length} outbox entry file(s) cannot be read, so they were not delivered: ${corrupt.map((x) => `${x.file} (${x.error})`).join('; ')}.`, {
    suggestions: ['Open the file and repair its JSON, or remove it if the write is not wanted', 'cairn outbox  (lists them)'],
    details: { corrupt },
  });
}

export function registerOutboxCommands(cmd: Command, rt: CliRuntime): void {
  cmd
    .command('list', { isDefault: true })
    .description('Entries waiting for delivery, those the server refused, and files that cannot be read')
    .action((_o: unknown, c: Command) => {
      const box = localOutbox();
      const out = { dir: box.dir, pending: box.pending(), refused: box.refused(), corrupt: box.corrupt() };
      rt.print(out, rt.globals(c).json, (o) =>
        [
          `${o.pending.length} waiting, ${o.refused.length} refused${o.corrupt.length ? `, ${o.corrupt.length} unreadable` : ''} (${o.dir})`,
          ...o.pending.map((e) => `  … ${e.id} ${e.op} → ${e.url}${e.attempts ? ` (${e.attempts} attempts; last: ${e.lastError ?? '?'})` : ''}`),
          ...o.refused.map((e) => `  ✗ ${e.id} ${e.op}: ${e.error.code}: ${e.error.message}  (cairn outbox retry ${e.id})`),
          ...corruptLines(o.corrupt),
        ].join('\n'),
      );
    });
  cmd
    .command('retry <id>')
    .description('Queue a refused entry again (after fixing what the server refused)')
    .action((id: string, _o: unknown, c: Command) => {
      const box = localOutbox();
      if (!box.retry(id)) throw new CairnError('VALIDATION_ERROR', `No refused outbox entry ${id} in ${box.dir}.`, { suggestions: ['cairn outbox  (lists refused entries)'] });
      rt.print({ retried: id }, rt.globals(c).json, () => `Queued ${id} again; cairn sync delivers it.`);
    });
}
