/**
 * Concise markdown for tool results, chosen by the result's shape (task, tasks, results, project, …)
 * rather than by tool, so every op gets a readable text without per-tool code. The full data rides
 * in structuredContent; the text is what most hosts show the model, so it stays short.
 */
import type { ActivityEvent } from '../core/model/activity.js';
import type { Project } from '../core/model/project.js';
import type { Task } from '../core/model/task.js';
import type { LinkView } from '../core/services/links.js';
import type { TokenInfo } from '../core/services/tokens.js';
import type { TaskRow } from './detail-fields.js';
import { MAX_EVENTS_PER_PAGE, MAX_TASKS_PER_PAGE } from '../core/rules/page.js';

/** Long descriptions and comments are cut here (Castle seed: "truncate to ~2000 chars"). */
export const TEXT_LIMIT = 2000;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Cuts text at the limit with a note naming where the rest is. */
/** One link: where, what, how many records in which projects, and how it stands (with its problems). */
function linkLine(l: LinkView): string {
  const problems = [...l.warnings, ...l.lost.map((w) => `${w.task}: ${w.fields.join(', ')} written by Cairn was overwritten by the source's owner`)];
  return `${l.path} (${l.kind}${l.writable ? '' : ', read-only'}): ${l.records} records in ${l.projects.join(', ') || 'no project yet'} · ${l.state}${problems.length ? `\n  ${problems.join('\n  ')}` : ''}`;
}

/** One token: name, scope, reach, prefix and last use (never its secret). */
function tokenLine(t: TokenInfo): string {
  return `"${t.name}" (${t.scope}, ${t.projects ? `projects ${t.projects.join(', ')}` : 'every project'}, ${t.prefix}…, last used ${t.lastUsedAt ?? 'never'}${t.revokedAt ? `, revoked ${t.revokedAt}` : ''})`;
}

export function clip(text: string, where: string, limit = TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… [cut: ${text.length - limit} more characters; ${where}]`;
}

const list = (ids: readonly string[]): string => (ids.length ? ids.join(', ') : '–');

/** One line per task: id, status, priority, title, assignee, blockers. */
export function taskLine(t: TaskRow): string {
  const bits = [`${t.id} [${t.status}${t.priority !== 'none' ? `, ${t.priority}` : ''}] ${t.title}`];
  if (t.assignee) bits.push(`@${t.assignee}`);
  if (t.claim) bits.push(`claimed by ${t.claim.actor} until ${t.claim.expiresAt}`);
  if (t.openBlockers.length) bits.push(`blocked by ${t.openBlockers.join(', ')}`);
  if (t.blocks.length) bits.push(`blocks ${t.blocks.join(', ')}`);
  if (t.isReady) bits.push('ready');
  if (t.checklistProgress?.total) bits.push(`checklist ${t.checklistProgress.done}/${t.checklistProgress.total}`);
  return `- ${bits.join(' · ')}${detailLines(t)}`;
}

/** Extra lines for the full-task fields a caller asked for with `fields`. */
function detailLines(t: TaskRow): string {
  const out: string[] = [];
  const where = `get_task {id: "${t.id}"} has the rest`;
  if (t.description) out.push(`description: ${clip(t.description.replace(/\s+/g, ' '), where, 300)}`);
  if (t.checklist?.length) out.push(`checklist: ${t.checklist.map((c) => `[${c.checked ? 'x' : ' '}] ${c.index}. ${c.text}`).join('; ')}`);
  if (t.comments?.length) {
    const last = t.comments[t.comments.length - 1]!;
    out.push(`comments: ${t.comments.length}, last by ${last.author}: ${clip(last.body.replace(/\s+/g, ' '), where, 200)}`);
  }
  return out.map((l) => `\n  ${l}`).join('');
}

function taskBlock(t: Task): string {
  const where = `read resource cairn://tasks/${t.id} or this result's structuredContent for the full text`;
  const out = [
    `## ${t.id}: ${t.title}`,
    `status ${t.status} (${t.statusCategory}) · priority ${t.priority} · kind ${t.kind} · assignee ${t.assignee ?? '–'} · version ${t.version} · ${t.isReady ? 'ready' : 'not ready'}`,
    `blockedBy ${list(t.blockedBy)}${t.openBlockers.length < t.blockedBy.length ? ` (open: ${list(t.openBlockers)})` : ''} · blocks ${list(t.blocks)} · children ${list(t.children)}${t.parentId ? ` · parent ${t.parentId}` : ''}`,
  ];
  if (t.claim) {
    const w = t.claim.where;
    out.push(`claimed by ${t.claim.actor} until ${t.claim.expiresAt}${w ? ` from ${w.worktree}${w.branch ? ` (${w.branch}` : ' ('}${w.head ? ` @ ${w.head.slice(0, 10)})` : ')'}` : ''}`);
  }
  if (t.labels.length) out.push(`labels ${t.labels.join(', ')}`);
  if (t.deletedAt) out.push(`deleted at ${t.deletedAt} (restore_task brings it back)`);
  if (t.archivedAt) out.push(`archived at ${t.archivedAt}`);
  if (t.closeReason) out.push(`close reason: ${t.closeReason}`);
  const links = Object.entries(t.links).filter(([, v]) => v !== undefined);
  if (links.length) out.push(`links ${links.map(([k, v]) => `${k}=${String(v)}`).join(' · ')}`);
  if (t.anchors.length) out.push(`anchors ${t.anchors.join(', ')}`);
  if (t.touches?.length) out.push(`touches ${t.touches.join(', ')}`);
  if (t.evidence) {
    const e = t.evidence;
    const what = [e.commit && `commit ${e.commit}`, e.prUrl && `PR ${e.prUrl}`, e.test && `\`${e.test.command}\` exited ${e.test.exitCode}`].filter(Boolean).join(' · ');
    out.push(`evidence ${e.status}: ${what}`);
  } else if (t.statusCategory === 'done') out.push('evidence none');
  if (t.origin) out.push(`origin ${t.origin}`);
  if (t.documentPath) out.push(`document ${t.documentPath}`);
  if (t.description) out.push('', clip(t.description, where));
  if (t.checkpoint) {
    const c = t.checkpoint;
    out.push('', `Checkpoint by ${c.actor} at ${c.at}${c.head ? ` (HEAD ${c.head.slice(0, 10)})` : ''}:`, clip(c.summary, where, 1500));
    if (c.next) out.push(`next: ${c.next}`);
    if (c.changedFiles?.length) out.push(`changed: ${c.changedFiles.join(', ')}`);
    for (const q of c.questions ?? []) out.push(`? ${q}`);
  }
  if (t.checklist.length) {
    out.push('', `Checklist (${t.checklist.filter((c) => c.checked).length}/${t.checklist.length}):`);
    for (const c of t.checklist) out.push(`- [${c.checked ? 'x' : ' '}] ${c.index}. ${c.text}`);
  }
  if (t.comments.length) {
    const shown = t.comments.slice(-5);
    out.push('', `Comments (${t.comments.length}${shown.length < t.comments.length ? `, last ${shown.length}` : ''}):`);
    for (const c of shown) out.push(`- ${c.author} (${c.kind}, ${c.createdAt}): ${clip(c.body, where, 600)}`);
  }
  return out.join('\n');
}

function projectLine(p: Project): string {
  return `- ${p.key}: ${p.name} · ${p.taskCount} tasks${p.root ? ` · root ${p.root}` : ''}${p.archived ? ' · archived' : ''}`;
}

function projectBlock(p: Project): string {
  return [
    `## ${p.key}: ${p.name}${p.archived ? ' (archived)' : ''}`,
    `${p.taskCount} tasks · root ${p.root ?? '–'} · aliases ${list(p.aliases)}`,
    `statuses: ${p.statuses.map((s) => `${s.name} (${s.category})`).join(', ')}`,
    ...(p.description ? ['', clip(p.description, `get_project {key: "${p.key}"} structuredContent has the full text`)] : []),
  ].join('\n');
}

function eventLine(e: ActivityEvent): string {
  const fields = Object.keys(e.changes);
  return `- #${e.seq} ${e.at} ${e.actor}${e.via ? ` (via ${e.via})` : ''} ${e.type}${e.taskId ? ` ${e.taskId}` : ''}${fields.length ? ` (${fields.join(', ')})` : ''}`;
}

/**
 * How the caller gets the next page; cursor-based lists name the same tool. How many more is known
 * on the first page only: a keyset cursor does not count the rows before it.
 */
function morePages(r: RenderContext, shown: number, total: number, nextCursor: unknown): string {
  if (typeof nextCursor !== 'string' || !nextCursor) return '';
  const counted = r.args.cursor === undefined && total - shown > 0;
  return `\n${counted ? `${total - shown} more` : 'More'}: call ${r.tool} again with the same arguments and cursor: "${nextCursor}".`;
}

export interface RenderContext {
  tool: string;
  args: Rec;
  defaultProject?: string | undefined;
}

/** Hints for an empty list: why it may be empty and what to call next. */
function emptyHint(r: RenderContext, what: string): string {
  const scoped = !r.args.project && !r.args.allProjects && r.defaultProject;
  const tips = [
    scoped ? `it is scoped to project ${r.defaultProject}; pass allProjects: true to look everywhere` : '',
    r.args.includeDone ? '' : what === 'tasks' ? 'done tasks are hidden unless includeDone: true' : '',
    'list_projects shows the projects; create_task adds work',
  ].filter(Boolean);
  return `No ${what} found (${tips.join('; ')}).`;
}

function renderTasks(r: RenderContext, o: Rec): string {
  const tasks = o.tasks as TaskRow[];
  if (tasks.length === 0) {
    const blocked = o.blocked as { count: number; topBlockers: string[] } | undefined;
    if (blocked && blocked.count > 0) {
      const top = blocked.topBlockers;
      return `No ready tasks. ${blocked.count} task${blocked.count === 1 ? ' is' : 's are'} blocked${top.length ? ` by ${top.join(', ')}` : ''}; see get_task ${top[0] ?? '<id>'} and finish or unblock it.`;
    }
    if (blocked)
      return `No ready tasks${r.defaultProject && !r.args.project ? ` in ${r.defaultProject}` : ''}. Nothing is waiting on blockers either: create_task to add work, or list_tasks to see what is in progress.`;
    return emptyHint(r, 'tasks');
  }
  const total = typeof o.total === 'number' ? o.total : tasks.length;
  const head = total > tasks.length ? `${tasks.length} of ${total} tasks:` : `${tasks.length} task${tasks.length === 1 ? '' : 's'}:`;
  const moreReady = o.hasMore === true ? `\nMore are ready: call ${r.tool} with a larger limit (at most ${MAX_TASKS_PER_PAGE}).` : '';
  return [head, ...tasks.map(taskLine)].join('\n') + morePages(r, tasks.length, total, o.nextCursor) + moreReady;
}

function renderResults(r: RenderContext, o: Rec): string {
  const results = o.results as Array<{ task: TaskRow; matchedFields: string[]; excerpt: string }>;
  if (results.length === 0) return `No tasks match "${String(r.args.query ?? '')}". Try fewer or different words, a prefix like auth*, or allProjects: true.`;
  const total = typeof o.total === 'number' ? o.total : results.length;
  const lines = results.map((x) => `${taskLine(x.task)}\n  matched ${x.matchedFields.join(', ')}: ${clip(x.excerpt.replace(/\s+/g, ' '), 'get_task has the rest', 300)}`);
  return [`${total > results.length ? `${results.length} of ${total}` : results.length} match${total === 1 ? '' : 'es'}:`, ...lines].join('\n') + morePages(r, results.length, total, o.nextCursor);
}

function renderBoard(o: Rec): string {
  const lanes = o.lanes as Array<{ status: string; category: string; count: number; cards: Array<{ id: string; title: string; priority: string; assignee: string | null; openBlockers: string[] }> }>;
  const s = o.summary as { totalTasks: number; doneTasks: number; readyTasks: number; doneRate: number; checklistDone: number; checklistTotal: number };
  if (s.totalTasks === 0)
    return `The board${o.project ? ` of ${String(o.project)}` : ''} is empty: create_task to add work${o.project ? '' : ' (list_projects shows the projects; create_project makes one)'}.`;
  const out = [
    `Board ${o.project ? String(o.project) : '(all projects)'}: ${s.totalTasks} tasks, ${s.doneTasks} done (${Math.round(s.doneRate * 100)}%), ${s.readyTasks} ready, checklist ${s.checklistDone}/${s.checklistTotal}`,
  ];
  const inProject = o.project ? `, project: "${String(o.project)}"` : '';
  for (const l of lanes) {
    out.push(`${l.status} (${l.count})`);
    for (const c of l.cards) out.push(`  - ${c.id} [${c.priority}] ${c.title}${c.assignee ? ` @${c.assignee}` : ''}${c.openBlockers.length ? ` · blocked by ${c.openBlockers.join(', ')}` : ''}`);
    const hidden = l.count - l.cards.length;
    const done = l.category === 'done' || l.category === 'canceled' ? ', includeDone: true' : '';
    if (hidden > 0 && l.cards.length) out.push(`  … +${hidden} more (list_tasks {status: "${l.status}"${inProject}${done}} lists them all)`);
  }
  const blocked = o.blocked as Array<{ id: string; openBlockers: string[] }>;
  const blockedCount = typeof o.blockedCount === 'number' ? o.blockedCount : blocked.length;
  const shown = blocked.slice(0, 10);
  if (shown.length) {
    const rest = blockedCount - shown.length;
    out.push(
      `Blocked (${blockedCount}): ${shown.map((b) => (b.openBlockers.length ? `${b.id} by ${b.openBlockers.join('+')}` : b.id)).join('; ')}${rest > 0 ? `; +${rest} more (next_tasks explains what holds the queue)` : ''}`,
    );
  }
  const wip = Object.entries(o.inProgressByAssignee as Record<string, string[]>);
  if (wip.length) out.push(`In progress: ${wip.map(([a, ids]) => `${a}: ${ids.join(', ')}`).join('; ')}`);
  return out.join('\n');
}

/** The markdown text for a successful op result. */
export function renderResult(r: RenderContext, output: unknown): string {
  if (!isRec(output)) return JSON.stringify(output);
  const o = output;
  const skipped =
    Array.isArray(o.skipped) && o.skipped.length
      ? `Passed over for reserved paths: ${(o.skipped as Array<{ id: string; reservedBy: Array<{ task: string; holder: string; paths: string[] }> }>).map((k) => `${k.id} (${k.reservedBy.map((b) => `${b.paths.join(', ')} held by ${b.holder} on ${b.task}`).join('; ')})`).join('; ')}.`
      : '';
  if ('task' in o && o.task === null)
    return ['No ready task to claim (nothing matches, or everything is blocked or claimed). next_tasks explains what blocks the queue.', skipped].filter(Boolean).join('\n');
  if (isRec(o.task)) {
    const parts = [taskBlock(o.task as Task)];
    if (skipped) parts.push('', skipped);
    if (Array.isArray(o.nowReady))
      parts.push('', o.nowReady.length ? `Now ready: ${o.nowReady.join(', ')}. Call next_tasks to pick the next one.` : 'No task became ready by this. Call next_tasks for more work.');
    return parts.join('\n');
  }
  if (Array.isArray(o.tasks)) return renderTasks(r, o);
  if (Array.isArray(o.results)) return renderResults(r, o);
  if (Array.isArray(o.lanes)) return renderBoard(o);
  if (isRec(o.project)) return projectBlock(o.project as Project);
  if (Array.isArray(o.projects)) {
    const ps = o.projects as Project[];
    if (ps.length === 0) return 'No projects yet: create_project {key: "API", name: "…", root: "<repository path>"} makes the first one.';
    return [`${ps.length} project${ps.length === 1 ? '' : 's'}:`, ...ps.map(projectLine)].join('\n');
  }
  if (Array.isArray(o.events)) {
    const ev = o.events as ActivityEvent[];
    const head = typeof o.taskId === 'string' ? `History of ${o.taskId}` : 'Changes';
    if (ev.length === 0) return `${head}: no events${typeof o.lastSeq === 'number' ? ` after seq ${o.lastSeq}` : ''}.`;
    return (
      [`${head} (${ev.length} events):`, ...ev.map(eventLine)].join('\n') +
      (o.hasMore === true
        ? typeof o.lastSeq === 'number'
          ? `\nMore: call ${r.tool} with since: ${String(o.lastSeq)}.`
          : `\nOlder events exist: call ${r.tool} with a larger limit (at most ${MAX_EVENTS_PER_PAGE}).`
        : typeof o.lastSeq === 'number'
          ? `\nlastSeq ${o.lastSeq}`
          : '')
    );
  }
  if (Array.isArray(o.labels)) {
    const ls = o.labels as Array<{ label: string; count: number }>;
    return ls.length ? `Labels: ${ls.map((l) => `${l.label} (${l.count})`).join(', ')}` : 'No labels in use yet.';
  }
  if (typeof o.purged === 'string') return `Purged ${o.purged}; it cannot be restored.`;
  if (isRec(o.link)) return `Linked ${linkLine(o.link as LinkView)}`;
  if (isRec(o.unlinked)) return `Unlinked ${(o.unlinked as LinkView).path}: its projects and tasks stay; the source was not touched.`;
  if (Array.isArray(o.links)) {
    const ls = o.links as LinkView[];
    return ls.length ? [`${ls.length} linked source${ls.length === 1 ? '' : 's'}:`, ...ls.map((l) => `- ${linkLine(l)}`)].join('\n') : 'No linked sources: link_source {path} links one.';
  }
  if (isRec(o.token) && typeof o.secret === 'string') return `Created token ${tokenLine(o.token as TokenInfo)}. Its secret, shown this once (send it as Authorization: Bearer <secret>): ${o.secret}`;
  if (isRec(o.token)) return `Revoked token ${tokenLine(o.token as TokenInfo)}: requests with it get 401.`;
  if (Array.isArray(o.tokens)) {
    const ts = o.tokens as TokenInfo[];
    return ts.length ? [`${ts.length} token${ts.length === 1 ? '' : 's'}:`, ...ts.map((t) => `- ${tokenLine(t)}`)].join('\n') : 'No tokens: create_token {name, scope} makes one.';
  }
  if (r.tool === 'export_tasks') {
    const counted = `Exported ${String(o.projects)} project(s), ${String(o.tasks)} task(s), ${String(o.comments)} comment(s), ${String(o.events)} event(s)`;
    return typeof o.out === 'string' ? `${counted} to ${o.out}.` : `${counted}:\n${String(o.jsonl ?? '')}`;
  }
  if (r.tool === 'import_tasks') {
    const t = o.tasks as { created: number; updated: number; unchanged: number };
    const p = o.projects as { created: string[]; existing: string[] };
    const lines = [
      `${o.dryRun === true ? 'Would import' : 'Imported'} from ${String(o.source)}: ${t.created} task(s) created, ${t.updated} updated, ${t.unchanged} left alone.`,
      ...(p.created.length ? [`Projects created: ${p.created.join(', ')}`] : []),
      ...(p.existing.length ? [`Into existing projects: ${p.existing.join(', ')}`] : []),
      ...(o.renumbered as Array<{ from: string; to: string }>).map((m) => `Renumbered ${m.from} → ${m.to}`),
      ...(o.warnings as string[]).map((w) => `Warning: ${w}`),
    ];
    return lines.join('\n');
  }
  // Handoffs and writes kept in the outbox say what happened in their message; plan documents, where they are.
  if (typeof o.documentPath === 'string') return `${String(o.taskId)}: ${o.documentPath} (${String(o.status)}${o.created === true ? ', created now' : ''})`;
  if (typeof o.message === 'string') return `${o.message}${typeof o.outboxId === 'string' ? ` (outbox ${o.outboxId})` : ''}`;
  return JSON.stringify(o);
}
