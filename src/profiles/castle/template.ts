/** Castle's workflow template (seeds 000/001): its task states as Cairn statuses, registered by ../templates.ts. */
import { namesOf, type StatusSeed } from '../../core/model/workflow.js';

/** Castle's task states. "active" and "review" are work under way, like in_progress. */
export const CASTLE_TEMPLATE = [
  { name: 'new', displayName: 'New', color: '#3b82f6', category: 'todo' },
  { name: 'in_progress', displayName: 'In progress', color: '#f59e0b', category: 'in_progress' },
  { name: 'active', displayName: 'Active', color: '#f97316', category: 'in_progress' },
  { name: 'blocked', displayName: 'Blocked', color: '#ef4444', category: 'blocked' },
  { name: 'review', displayName: 'Review', color: '#8b5cf6', category: 'in_progress' },
  { name: 'done', displayName: 'Done', color: '#10b981', category: 'done' },
] as const satisfies readonly StatusSeed[];

/** Castle's states in workflow order, as literal types (the tools' enums). */
export const CASTLE_STATES = namesOf(CASTLE_TEMPLATE);
