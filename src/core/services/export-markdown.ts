/**
 * The markdown export's file per task: YAML front matter (every value written as JSON, which YAML
 * reads as it is), the description as the body, the checklist as `- [ ]` lines, then comments and
 * history. `parseMarkdownTask` reads the fields back (the round trip the property test checks).
 */
import { PROJECT_KEY_RE } from '../model/ids.js';
import type { Status } from '../model/workflow.js';
import type { ProjectRow } from '../ports.js';
import type { TaskDump } from '../transfer-port.js';
import { FRONT_MATTER_FIELDS, TASK_FIELDS, type MarkdownTaskFields } from './export-fields.js';

const MARK = { checklist: '<!-- cairn:checklist -->', comments: '<!-- cairn:comments -->', history: '<!-- cairn:history -->' } as const;

/** Checklist text on one line: backslashes and line breaks escaped. */
const escapeItem = (s: string) => s.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
const unescapeItem = (s: string) => s.replace(/\\(\\|n|r)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));

export type { MarkdownTaskFields };

export interface ParsedMarkdownTask {
  fields: MarkdownTaskFields;
  description: string;
  checklist: Array<{ text: string; checked: boolean }>;
}

/** The front matter: the transferable fields (TASK_FIELDS) but those the body holds, in line order. */
export function frontMatterOf(d: TaskDump): MarkdownTaskFields {
  const fm: Record<string, unknown> = {};
  for (const k of FRONT_MATTER_FIELDS) fm[k] = TASK_FIELDS[k].front!(d);
  return fm as MarkdownTaskFields;
}

/** A one-line summary of an event's changes: the fields it touched. */
function changedFields(changes: string): string {
  try {
    return Object.keys(JSON.parse(changes) as Record<string, unknown>).join(', ');
  } catch {
    return '';
  }
}

export function markdownFile(d: TaskDump): string {
  const fm = frontMatterOf(d);
  const head = Object.entries(fm).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  const out = ['---', ...head, '---', '', d.row.description];
  if (d.checklist.length) {
    out.push('', MARK.checklist, '## Checklist', '', ...d.checklist.map((i) => `- [${i.checked ? 'x' : ' '}] ${escapeItem(i.text)}`));
  }
  if (d.comments.length) {
    out.push('', MARK.comments, '## Comments');
    for (const c of d.comments) out.push('', `### ${c.author} · ${c.kind} · ${c.createdAt}`, '', c.body);
  }
  if (d.events.length) {
    out.push('', MARK.history, '## History', '');
    for (const e of d.events) out.push(`- ${e.at} · ${e.actor}${e.via ? ` (via ${e.via})` : ''} · ${e.type}${changedFields(e.changes) ? ` · ${changedFields(e.changes)}` : ''}`);
  }
  return out.join('\n') + '\n';
}

/**
 * A project's folder name: its key, which create and import allow only as 2–10 letters. A key that
 * is not (a workspace written before keys were checked on import) is never used raw: its letters and
 * digits are kept and the project's uid tail added, so it cannot name a path or clash with a real key.
 */
export function markdownFolderOf(p: Pick<ProjectRow, 'key' | 'uid'>): string {
  if (PROJECT_KEY_RE.test(p.key)) return p.key;
  const kept = p.key
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return `${kept || 'project'}_${p.uid.slice(-8).toLowerCase()}`;
}

/** Whether `name` is a task file the markdown export writes into `folder`. */
export const isMarkdownTaskFile = (folder: string, name: string): boolean => name.startsWith(`${folder}-`) && /^\d+\.md$/.test(name.slice(folder.length + 1));

export function projectReadme(p: ProjectRow, statuses: Status[]): string {
  const lines = [
    `# ${p.key}: ${p.name}`,
    '',
    ...(p.description ? [p.description, ''] : []),
    `- uid: ${p.uid}`,
    ...(p.root ? [`- root: ${p.root}`] : []),
    ...(p.aliases.length ? [`- aliases: ${p.aliases.join(', ')}`] : []),
    ...(p.archivedAt ? [`- archived: ${p.archivedAt}`] : []),
    '',
    '## Workflow',
    '',
    ...statuses.map((s) => `- ${s.name} (${s.category}): ${s.displayName}`),
  ];
  return lines.join('\n') + '\n';
}

/** Reads a task file written by `markdownFile` back into its fields, description and checklist. */
export function parseMarkdownTask(text: string): ParsedMarkdownTask {
  if (!text.startsWith('---\n')) throw new Error('no front matter: the file must start with a "---" line');
  const end = text.indexOf('\n---\n', 3);
  if (end < 0) throw new Error('front matter is not closed by a "---" line');
  const fields: Record<string, unknown> = {};
  for (const line of text.slice(4, end).split('\n')) {
    const colon = line.indexOf(': ');
    if (colon < 0) throw new Error(`front matter line "${line}" is not "key: value"`);
    fields[line.slice(0, colon)] = JSON.parse(line.slice(colon + 2));
  }
  // Body: a blank line, the description, then the sections (each after a blank line and its marker).
  let body = text.slice(end + 5, text.length - 1).slice(1);
  for (const mark of [MARK.history, MARK.comments]) {
    const at = body.lastIndexOf(`\n\n${mark}\n`);
    if (at >= 0) body = body.slice(0, at);
  }
  const checklist: ParsedMarkdownTask['checklist'] = [];
  const at = body.lastIndexOf(`\n\n${MARK.checklist}\n`);
  if (at >= 0) {
    const section = body.slice(at + MARK.checklist.length + 3).split('\n');
    for (const line of section.slice(2)) {
      const m = /^- \[([ x])\] (.*)$/.exec(line);
      if (m) checklist.push({ checked: m[1] === 'x', text: unescapeItem(m[2]!) });
    }
    body = body.slice(0, at);
  }
  return { fields: fields as unknown as MarkdownTaskFields, description: body, checklist };
}
