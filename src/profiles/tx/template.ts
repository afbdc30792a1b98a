/** tx's workflow template (seed 002): its statuses as Cairn statuses, registered by ../templates.ts. */
import { namesOf, type StatusSeed } from '../../core/model/workflow.js';

/**
 * tx's statuses. tx counts backlog, ready and planning as workable, so all three are todo: its
 * ready queue (tx_ready) is Cairn's, unchanged.
 */
export const TX_TEMPLATE = [
  { name: 'backlog', displayName: 'Backlog', color: '#9ca3af', category: 'todo' },
  { name: 'ready', displayName: 'Ready', color: '#3b82f6', category: 'todo' },
  { name: 'planning', displayName: 'Planning', color: '#06b6d4', category: 'todo' },
  { name: 'active', displayName: 'Active', color: '#f59e0b', category: 'in_progress' },
  { name: 'blocked', displayName: 'Blocked', color: '#ef4444', category: 'blocked' },
  { name: 'review', displayName: 'Review', color: '#8b5cf6', category: 'in_progress' },
  { name: 'human_needs_to_review', displayName: 'Human needs to review', color: '#ec4899', category: 'in_progress' },
  { name: 'done', displayName: 'Done', color: '#10b981', category: 'done' },
] as const satisfies readonly StatusSeed[];

/** tx's statuses in workflow order, as literal types (the tools' enum). */
export const TX_STATUSES = namesOf(TX_TEMPLATE);
