/** The human views by name, so bindings can name how their op's output is shown. */
import { boardView } from './board-view.js';
import { progressView } from './progress-view.js';
import { documentView, handoffView } from './handoff-views.js';
import { linksView, linkView, pathsView, unlinkedView } from './link-views.js';
import { changesView, historyView, labelsView, projectsView, projectView, purgedView } from './misc-views.js';
import type { RenderEnv } from './render-env.js';
import { visibleStrings } from './visible-text.js';
import { blockedView, checklistView, commentedView, completedView, taskChangedView, taskCreatedView, taskDetailView, unblockedView } from './task-detail-view.js';
import { readyView, searchView, taskListView } from './task-list-view.js';

// Views take the op's output, which runOp has already typed per op; the table is keyed by name only.
type View = (out: never, env: RenderEnv) => string;

export const VIEWS = {
  'task-created': taskCreatedView,
  'task-list': taskListView,
  task: taskDetailView,
  ready: readyView,
  'task-changed': taskChangedView,
  blocked: blockedView,
  unblocked: unblockedView,
  completed: completedView,
  checklist: checklistView,
  commented: commentedView,
  search: searchView,
  board: boardView,
  progress: progressView,
  history: historyView,
  changes: changesView,
  labels: labelsView,
  purged: purgedView,
  projects: projectsView,
  project: projectView,
  handoff: handoffView,
  document: documentView,
  link: linkView,
  unlinked: unlinkedView,
  links: linksView,
  paths: pathsView,
} satisfies Record<string, View>;

export type ViewName = keyof typeof VIEWS;

/** The one way op output reaches the terminal: every string in it is made visible first (visible-text.ts). */
export function renderView(name: ViewName, out: unknown, env: RenderEnv): string {
  return (VIEWS[name] as (o: unknown, e: RenderEnv) => string)(visibleStrings(out), env);
}
