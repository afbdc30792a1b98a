/**
 * From activity events to resource notifications: which URIs changed and whether the project list
 * did. The change feed (core/services/change-feed.ts) sees commits by every process, so a subscriber
 * hears about changes made by the CLI or another server as well as its own.
 */
import type { ActivityEvent } from '../core/model/activity.js';
import type { ChangeFeed } from '../core/services/change-feed.js';
import { PROJECTS_URI, projectUri, taskUri } from './resources.js';

/** Where notifications go. createMcpHandler's `handler.notify` has exactly this shape. */
export interface ChangeSink {
  resourceUpdated(uri: string): void;
  resourcesChanged(): void;
  /** Whether anyone hears resourceUpdated now; when not, the feed does not read the events for it. Default: yes. */
  wantsUpdates?(): boolean;
}

/** Events that add or remove an entry of cairn://projects (resources/list_changed). */
const LIST_CHANGING = new Set(['project.created', 'project.archived', 'project.restored']);

const idsIn = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The resource URIs a batch of events touched, and whether the resource list changed. */
export function changesOf(events: readonly ActivityEvent[]): { updated: string[]; listChanged: boolean } {
  const updated = new Set<string>();
  let listChanged = false;
  for (const e of events) {
    if (LIST_CHANGING.has(e.type)) listChanged = true;
    if (e.project) {
      updated.add(projectUri(e.project));
      updated.add(PROJECTS_URI);
    }
    if (e.taskId) updated.add(taskUri(e.taskId));
    // An edge changes both ends: the other task's `blocks` (or parent's `children`) moved too.
    for (const field of ['blockedBy', 'parentId']) {
      const c = e.changes[field];
      if (c) for (const id of [...idsIn(c.before), ...idsIn(c.after)]) updated.add(taskUri(id));
    }
  }
  return { updated: [...updated], listChanged };
}

/**
 * Forwards the feed to a sink; returns the unsubscribe function. Updates are read only while the
 * sink wants them; project additions and archivals always are (every client hears list_changed).
 */
export function forwardChanges(feed: ChangeFeed, sink: ChangeSink): () => void {
  const offUpdates = feed.subscribe(
    (events) => {
      for (const uri of changesOf(events).updated) sink.resourceUpdated(uri);
    },
    { active: () => sink.wantsUpdates?.() ?? true },
  );
  // `types` only narrows what the feed reads; changesOf stays the one definition of a list change.
  const offList = feed.subscribe(
    (events) => {
      if (changesOf(events).listChanged) sink.resourcesChanged();
    },
    { types: LIST_CHANGING },
  );
  return () => {
    offUpdates();
    offList();
  };
}
