/** Views for handoffs and task documents (`cairn handoff`, `cairn doc`). */
import type { SubmitHandoffOutput } from '../../core/services/handoffs.js';
import type { TaskDocumentOutput } from '../../core/services/task-document.js';
import type { RenderEnv } from './render-env.js';

export function handoffView(out: SubmitHandoffOutput, env: RenderEnv): string {
  if (out.persistedOffline) {
    return `${env.paint('yellow', 'Recorded offline')} (outbox ${out.outboxId ?? '?'}): ${out.message}`;
  }
  const where = `${env.paint('bold', out.taskId ?? '?')} in ${out.target.project ?? '?'}${out.target.repository ? ` (${out.target.repository})` : ''}`;
  return out.replayed ? `Already handed off: ${where} (same idempotency key; nothing new created)` : `Handed off: ${where}`;
}

export function documentView(out: TaskDocumentOutput, env: RenderEnv): string {
  const status = out.status === 'active' ? env.paint('green', out.created ? 'created' : 'active') : env.paint('yellow', out.status);
  const hint = out.status === 'active' ? '' : `\n${env.paint('dim', `No document yet: cairn doc ${out.taskId} --no-require-existing writes a shell`)}`;
  return `${out.documentPath}  ${status}${hint}`;
}
