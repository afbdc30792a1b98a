/** DevPlanner's workflow template: its four lanes as Cairn statuses, registered by ../templates.ts. */
import { namesOf, type StatusSeed } from '../../core/model/workflow.js';

/** DevPlanner's four lanes; 04-archive is a resolved lane so archived cards never block. */
export const DEVPLANNER_TEMPLATE = [
  { name: '01-upcoming', displayName: 'Upcoming', color: '#3b82f6', category: 'todo' },
  { name: '02-in-progress', displayName: 'In Progress', color: '#f59e0b', category: 'in_progress' },
  { name: '03-complete', displayName: 'Complete', color: '#10b981', category: 'done' },
  { name: '04-archive', displayName: 'Archive', color: '#6b7280', category: 'canceled' },
] as const satisfies readonly StatusSeed[];

/** The lanes in workflow order, as literal types. */
export const DEVPLANNER_LANES = namesOf(DEVPLANNER_TEMPLATE);
