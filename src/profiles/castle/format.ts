/** Castle's markdown texts (seed 000, "Tool Output Formatting"), from Cairn tasks. */
import type { Task, TaskSummary } from '../../core/model/task.js';

/** Castle truncates long text at ~2,000 characters (seed 000, edge cases). */
export const TEXT_LIMIT = 2000;

/** Long text cut as seed 000 cuts research content: its first 2,000 characters (the detail view says what was cut, after the seed's lines). */
export function truncate(text: string, limit = TEXT_LIMIT): string {
  return text.length <= limit ? text : text.substring(0, limit);
}

/**
 * Castle's list: one line per task with its PR when it has one. Lists carry summaries, so the PR
 * comes from `prUrlOf` (the rows' links, read at once) rather than a copy of each row.
 */
/** A task's id in Castle's own database (its UUID), when the task is a linked or imported Castle row. */
export const castleIdOf = (origin: string | null | undefined): string | undefined => (origin?.startsWith('castle:') ? origin.slice(7) : undefined);

/** `CASTLE-3`, with Castle's own id beside it when the task is a Castle row (either works in castle_get_task). */
const idText = (id: string, origin: string | null | undefined) => (castleIdOf(origin) ? `${id} (Castle ${castleIdOf(origin)})` : id);

export function formatTaskList<T extends TaskSummary>(
  tasks: readonly T[],
  total: number,
  heading = 'Castle Tasks',
  prUrlOf: (t: T) => string | undefined = () => undefined,
  originOf: (t: T) => string | null | undefined = () => undefined,
): string {
  if (tasks.length === 0) return 'No tasks found.';
  const lines = tasks.map((t) => {
    const labels = t.labels.length ? ` [${t.labels.join(', ')}]` : '';
    const pr = prUrlOf(t);
    return `- **${t.title}** (${t.status}, ${t.kind})${labels}${pr ? ` | PR: ${pr}` : ''}\n  ID: ${idText(t.id, originOf(t))}`;
  });
  const more = total > tasks.length ? `\n\nShowing ${tasks.length} of ${total}; filter by state or kind, or use castle_search_tasks.` : '';
  return `## ${heading} (${total})\n\n${lines.join('\n')}${more}`;
}

/** Research notes are the task's research comments, oldest first. */
export function researchOf(task: Task): string {
  return task.comments
    .filter((c) => c.kind === 'research')
    .map((c) => c.body)
    .join('\n\n');
}

/**
 * Seed 000's formatTaskDetail, line for line and in its order (research cut at 2,000 characters as
 * it cuts it); what Cairn adds (its id beside Castle's, the PR number, the GitHub issue, the close
 * reason, what a cut left out) comes on lines after the seed's. Times are ISO 8601, where the seed
 * printed a Date.
 */
export function formatTaskDetail(task: Task): string {
  const l = task.links;
  const research = researchOf(task);
  const seed = [
    `## ${task.title}`,
    `**State:** ${task.status} | **Kind:** ${task.kind}`,
    task.labels.length ? `**Labels:** ${task.labels.join(', ')}` : '',
    `**Created:** ${task.createdAt} | **Updated:** ${task.updatedAt}`,
    '',
    '### Description',
    task.description ? truncate(task.description) : '(none)',
    l.branch ? `\n**Branch:** ${l.branch}` : '',
    l.worktree ? `**Worktree:** ${l.worktree}` : '',
    l.prUrl ? `**PR:** ${l.prUrl}${l.prState ? ` (${l.prState})` : ''}` : '',
    research ? `\n### Research\n${truncate(research)}` : '',
  ];
  const cut = (what: string, text: string) => (text.length > TEXT_LIMIT ? `${what} cut at ${TEXT_LIMIT.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters` : '');
  const added = [
    `\n**ID:** ${idText(task.id, task.origin)}`,
    l.prNumber ? `**PR number:** #${l.prNumber}` : '',
    !l.prUrl && l.prState ? `**PR state:** ${l.prState}` : '',
    l.issue ? `**GitHub issue:** ${l.issue}` : '',
    task.closeReason ? `**Close reason:** ${task.closeReason}` : '',
    [cut('Description', task.description), cut('Research', research)].filter(Boolean).join('; '),
  ];
  return [...seed, '', ...added].filter(Boolean).join('\n');
}
