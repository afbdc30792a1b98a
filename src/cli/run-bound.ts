/** Runs a bound command: open the session, fill the default project, call the op, print the result. */
import { CairnError, toCairnError } from '../core/errors.js';
import { runOp } from '../ops/run-op.js';
import { isOfflineReceipt } from '../remote/remote-runner.js';
import type { BoundCommand } from './op-command.js';
import { collectInput } from './op-command.js';
import { emit } from './output.js';
import { fieldTable, parseFields, pickFields } from './field-columns.js';
import { colorEnabled, painter } from './render/color.js';
import { visibleStrings } from './render/visible-text.js';
import { resolveTextInputs } from './text-input.js';
import { defaultProject, noProjectError, openSession, type GlobalOptions } from './session.js';
import { stdoutColumns, stdoutIsTTY, writeOut } from './stdout.js';

/** Restates a VALIDATION_ERROR from the op in this command's words: flags instead of field names. */
function inCliTerms(err: CairnError, b: BoundCommand): CairnError {
  const issues = (err.details?.issues ?? null) as Array<{ path: string[]; message: string }> | null;
  if (err.code !== 'VALIDATION_ERROR' || !issues?.length) return err;
  const label = (path: string[]): string => b.labels.get(path.slice(0, 2).join('.')) ?? b.labels.get(path[0] ?? '') ?? path.join('.');
  const what = issues.slice(0, 5).map((i) => `${label(i.path)}${i.path.length > 1 && !b.labels.has(i.path.slice(0, 2).join('.')) ? ` (${i.path.join('.')})` : ''}: ${i.message}`);
  return new CairnError('VALIDATION_ERROR', `Invalid input for cairn ${b.binding.command}: ${what.join('; ')}. Nothing was changed.`, {
    suggestions: [`cairn ${b.binding.command} --help`],
    details: err.details ?? {},
  });
}

export async function runBound(b: BoundCommand, args: unknown[], opts: Record<string, unknown>): Promise<void> {
  const g = opts as GlobalOptions;
  const fields = b.binding.fields ? parseFields(opts.fields) : undefined;
  let input = collectInput(b, args, opts);
  const session = openSession(g, { write: !b.op.readOnly });
  try {
    const takesProject = 'project' in b.op.input.shape;
    if (takesProject && input.project === undefined && input.allProjects !== true) {
      const key = await defaultProject(session.ctx);
      if (key) session.ctx.defaultProject = key;
      else if (b.binding.needsProject) throw await noProjectError(session.ctx);
    }
    input = await resolveTextInputs(b, input, opts, session.ctx);
    const out = await runOp(b.op, session.ctx, input);
    if (!b.op.readOnly) await session.register?.();
    // A write kept in the outbox while the remote server is away (other than a handoff, whose view says so).
    if (isOfflineReceipt(out) && b.op.name !== 'submit_handoff') {
      writeOut(g.json ? `${JSON.stringify(out, null, 2)}\n` : `Recorded offline (outbox ${out.outboxId}): ${out.message}\n`);
      return;
    }
    // `archive --restore` restored: the verb follows the flag that turns the op around.
    const verb = b.binding.verbIf && input[b.binding.verbIf.field] === true ? b.binding.verbIf.verb : b.binding.verb;
    if (fields && g.json) writeOut(`${JSON.stringify(pickFields(out as Record<string, unknown>, fields), null, 2)}\n`);
    else if (fields) {
      writeOut(`${fieldTable(visibleStrings(out) as Record<string, unknown>, fields, { paint: painter(colorEnabled({ isTTY: stdoutIsTTY() })), width: stdoutColumns() })}\n`);
    } else emit(out, { json: g.json, view: b.binding.view, verb });
  } catch (err) {
    throw inCliTerms(toCairnError(err), b);
  } finally {
    await session.close();
  }
}
