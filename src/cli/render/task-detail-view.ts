/** The full task for `show`, and the confirmations printed after a task changes. */
import type { Task } from '../../core/model/task.js';
import type { RenderEnv } from './render-env.js';
import { markerCell, stateText, taskLine } from './task-parts.js';
import { humanTime, relativeTime } from './time.js';

function field(env: RenderEnv, name: string, value: string): string {
  return `${env.paint('dim', `${name}:`.padEnd(11))}${value}`;
}

function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}

export function checklistLines(task: Pick<Task, 'checklist' | 'checklistProgress'>, env: RenderEnv): string[] {
  if (!task.checklist.length) return [env.paint('dim', 'Checklist is empty.')];
  return [
    `${env.paint('bold', 'Checklist')} ${task.checklistProgress.done}/${task.checklistProgress.total}`,
    ...task.checklist.map((i) => `  ${i.checked ? env.paint('green', '[x]') : '[ ]'} ${String(i.index).padStart(2)}  ${i.text}`),
  ];
}

function relations(t: Task, env: RenderEnv): string[] {
  const out: string[] = [];
  const state = stateText(t);
  out.push(field(env, 'state', env.paint(state.style ?? 'dim', state.text)));
  const finished = t.blockedBy.filter((b) => !t.openBlockers.includes(b));
  if (finished.length) out.push(field(env, 'waited on', `${finished.join(', ')} (finished)`));
  if (t.blocks.length) out.push(field(env, 'blocks', t.blocks.join(', ')));
  if (t.parentId) out.push(field(env, 'parent', t.parentId));
  if (t.children.length) out.push(field(env, 'children', `${t.children.join(', ')}${t.childProgress ? ` (${t.childProgress.done}/${t.childProgress.total} done)` : ''}`));
  return out;
}

function facts(t: Task, env: RenderEnv): string[] {
  const out = [
    field(env, 'status', `${t.status} (${t.statusCategory})${t.substatus ? `   substatus: ${t.substatus}` : ''}`),
    field(env, 'priority', `${t.priority}   kind: ${t.kind}   score: ${t.score}`),
  ];
  out.push(field(env, 'assignee', t.assignee ?? '-'));
  if (t.slug) out.push(field(env, 'slug', t.slug));
  if (t.claim) {
    const w = t.claim.where;
    out.push(
      field(env, 'claim', `${t.claim.actor} until ${humanTime(t.claim.expiresAt)}${w ? `, from ${w.worktree}${w.branch ? ` on ${w.branch}` : ''}${w.head ? ` at ${w.head.slice(0, 10)}` : ''}` : ''}`),
    );
  }
  if (t.labels.length) out.push(field(env, 'labels', t.labels.join(', ')));
  out.push(...relations(t, env));
  const links = Object.entries(t.links).map(([k, v]) => `${k}=${String(v)}`);
  if (links.length) out.push(field(env, 'links', links.join('  ')));
  if (t.anchors.length) out.push(field(env, 'anchors', t.anchors.join(', ')));
  if (t.touches?.length) out.push(field(env, 'touches', t.touches.join(', ')));
  if (t.evidence) {
    const e = t.evidence;
    out.push(
      field(
        env,
        'evidence',
        `${env.paint(e.status === 'verified' ? 'green' : 'yellow', e.status)}  ${[e.commit && `commit ${e.commit}`, e.prUrl, e.test && `\`${e.test.command}\` exit ${e.test.exitCode}`].filter(Boolean).join('  ')}`,
      ),
    );
  } else if (t.statusCategory === 'done') out.push(field(env, 'evidence', env.paint('dim', 'none')));
  if (t.origin) out.push(field(env, 'origin', t.origin));
  if (t.documentPath) out.push(field(env, 'document', t.documentPath));
  if (t.closeReason) out.push(field(env, 'closed', t.closeReason));
  for (const [name, at] of [
    ['archived', t.archivedAt],
    ['deleted', t.deletedAt],
  ] as const)
    if (at) out.push(field(env, name, env.paint('red', humanTime(at))));
  out.push(field(env, 'updated', `${humanTime(t.updatedAt)}, created ${humanTime(t.createdAt)}`));
  return out;
}

export function taskDetailView(out: { task: Task }, env: RenderEnv): string {
  const t = out.task;
  const blocks = [`${taskLine(t, env)}`, facts(t, env).join('\n')];
  if (t.description) blocks.push(`${env.paint('bold', 'Description')}\n${indent(t.description)}`);
  if (t.checklist.length) blocks.push(checklistLines(t, env).join('\n'));
  if (t.checkpoint) {
    const c = t.checkpoint;
    const rows = [
      indent(c.summary),
      ...(c.next ? [`  next: ${c.next}`] : []),
      ...(c.changedFiles?.length ? [`  changed: ${c.changedFiles.join(', ')}`] : []),
      ...(c.questions ?? []).map((q) => `  ? ${q}`),
    ];
    blocks.push(`${env.paint('bold', 'Checkpoint')} ${env.paint('dim', `${c.actor} · ${relativeTime(c.at)}${c.head ? ` · HEAD ${c.head.slice(0, 10)}` : ''}`)}\n${rows.join('\n')}`);
  }
  if (t.comments.length) {
    const comments = t.comments.map((c) => `  ${env.paint('cyan', c.author)} ${env.paint('dim', `· ${c.kind} · ${relativeTime(c.createdAt)}`)}\n${indent(c.body, '    ')}`);
    blocks.push(`${env.paint('bold', `Comments (${t.comments.length})`)}\n${comments.join('\n')}`);
  }
  return blocks.join('\n\n');
}

export function taskCreatedView(out: { task: Task }, env: RenderEnv): string {
  const t = out.task;
  const rel = stateText(t).text;
  return `${env.paint('green', 'Created')} ${taskLine(t, env)}\n  ${env.paint('dim', rel)}`;
}

export function taskChangedView(out: { task: Task | null; skipped?: Array<{ id: string; reservedBy: Array<{ task: string; holder: string; paths: string[] }> }> }, env: RenderEnv): string {
  const t = out.task;
  const skipped = (out.skipped ?? []).map((k) => `  ${env.paint('dim', `passed over ${k.id}: ${k.reservedBy.map((b) => `${b.paths.join(', ')} reserved by ${b.holder} (${b.task})`).join('; ')}`)}`);
  // claim_next (`cairn start --next`) answers null when nothing is ready.
  if (!t) return ['No ready task to claim: nothing matches, or everything is blocked or claimed. `cairn ready` says what blocks the queue.', ...skipped].join('\n');
  const lines = [`${env.verb ?? 'Changed'} ${taskLine(t, env)}`, ...skipped];
  if (t.claim) lines.push(`  ${env.paint('dim', `claimed by ${t.claim.actor} until ${humanTime(t.claim.expiresAt)}`)}`);
  else if (markerCell(t).text) lines.push(`  ${env.paint('dim', markerCell(t).text)}`);
  return lines.join('\n');
}

export function completedView(out: { task: Task; nowReady: string[] }, env: RenderEnv): string {
  const lines = [`${env.paint('green', 'Completed')} ${taskLine(out.task, env)}`];
  if (out.nowReady.length) lines.push(`  now ready: ${out.nowReady.join(', ')}`);
  return lines.join('\n');
}

export function checklistView(out: { task: Task }, env: RenderEnv): string {
  return [`${env.paint('bold', out.task.id)}  ${out.task.title}  ${env.paint('dim', `v${out.task.version}`)}`, ...checklistLines(out.task, env)].join('\n');
}

export function commentedView(out: { task: Task }, env: RenderEnv): string {
  const last = out.task.comments[out.task.comments.length - 1];
  return `${env.paint('green', 'Commented')} on ${taskLine(out.task, env)}${last ? `\n${indent(last.body, '    ')}` : ''}`;
}

/**
 * `block`: what the task waits on now. A blocker that is already finished holds nothing up, so
 * recording one is not "Blocked".
 */
export function blockedView(out: { task: Task }, env: RenderEnv): string {
  const t = out.task;
  if (t.openBlockers.length)
    return `${env.paint('red', 'Blocked')} ${taskLine(t, env)}
  ${env.paint('dim', `waits on ${t.openBlockers.join(', ')}`)}`;
  const finished = t.blockedBy.filter((b) => !t.openBlockers.includes(b));
  return `Recorded the blocker of ${taskLine(t, env)}
  ${env.paint('dim', `${finished.join(', ')} ${finished.length === 1 ? 'is' : 'are'} finished, so ${t.id} waits on nothing (${stateText(t).text})`)}`;
}

/** `unblock`: what the task still waits on, if anything. */
export function unblockedView(out: { task: Task }, env: RenderEnv): string {
  const t = out.task;
  const rest = t.openBlockers.length ? `still waits on ${t.openBlockers.join(', ')}` : `waits on nothing now (${stateText(t).text})`;
  return `Unblocked ${taskLine(t, env)}
  ${env.paint('dim', rest)}`;
}
