/** How Backlog.md's task files hold what Cairn links: the marked sections of a description, DoD items, the held view. */
import { readdirSync } from 'node:fs';
import { fitItem, fitLabels, fitTitle } from '../../core/services/import/model.js';
import type { Status } from '../../core/model/workflow.js';
import type { Held } from '../source.js';

export const SECTIONS = [
  ['SECTION:PLAN', 'Implementation Plan'],
  ['SECTION:NOTES', 'Implementation Notes'],
  ['SECTION:FINAL_SUMMARY', 'Final Summary'],
] as const;
export const DOD = 'DoD: ';

/** A description as its sections: the Description's text, then each further section Backlog.md marks. */
export function descriptionParts(description: string): { description: string; sections: Record<string, string> } {
  const heads = SECTIONS.map(([marker, heading]) => ({ marker, at: description.search(new RegExp(`(^|\\n)## ${heading}\\n`)) }))
    .filter((h) => h.at >= 0)
    .sort((a, b) => a.at - b.at);
  const sections: Record<string, string> = {};
  for (const [i, h] of heads.entries()) {
    const end = heads[i + 1]?.at ?? description.length;
    const heading = SECTIONS.find(([m]) => m === h.marker)![1];
    sections[h.marker] = description
      .slice(h.at, end)
      .replace(new RegExp(`^\\n?## ${heading}\\n`), '')
      .trim();
  }
  return { description: (heads.length ? description.slice(0, heads[0]!.at) : description).trim(), sections };
}

function composeDescription(p: ReturnType<typeof descriptionParts>): string {
  return [p.description, ...SECTIONS.map(([m, h]) => (p.sections[m] ? `## ${h}\n\n${p.sections[m]}` : ''))].filter(Boolean).join('\n\n');
}

const assignees = (a: string | null): string[] =>
  (a ?? '')
    .split(',')
    .map((x) => x.trim().replace(/^@/, ''))
    .filter(Boolean);

/**
 * The status a task is written with: its own when config.yml has it (or a draft), else the first of
 * config.yml's statuses of its category (a task made in Cairn's "todo" is Backlog.md's "To Do").
 */
export function backlogStatus(h: Held, statuses: ReadonlyArray<Pick<Status, 'name' | 'category'>>): string {
  if (h.status === 'draft' || statuses.some((s) => s.name === h.status) || !h.category) return h.status;
  const wanted = h.category === 'canceled' ? 'done' : h.category === 'blocked' || h.category === 'backlog' ? 'todo' : h.category;
  return statuses.find((s) => s.category === wanted && s.name !== 'draft')?.name ?? h.status;
}

export function backlogView(h: Held, statuses: ReadonlyArray<Pick<Status, 'name' | 'category'>> = []): Held {
  const items = h.checklist.map((i) => ({ text: fitItem(i.text.replace(/\s*\n\s*/g, ' ').replace(/^#\d+ /, '')), checked: i.checked })).filter((i) => i.text !== '');
  const names = assignees(h.assignee);
  return {
    ...h,
    title: fitTitle(h.title, 'task'),
    status: backlogStatus(h, statuses),
    description: composeDescription(descriptionParts(h.description)),
    priority: h.priority === 'urgent' ? 'high' : h.priority,
    labels: fitLabels(h.labels).sort(),
    assignee: names.length ? names.join(', ').slice(0, 100) : null,
    checklist: [...items.filter((i) => !i.text.startsWith(DOD)), ...items.filter((i) => i.text.startsWith(DOD))],
  };
}

export function mdFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.md') && !f.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}
