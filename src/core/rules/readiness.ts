/** Readiness as a pure function: the single definition the store's ready query must agree with. */
import type { Category } from '../model/workflow.js';
import { RESOLVED_CATEGORIES } from '../model/workflow.js';

export interface ReadinessInput {
  category: Category;
  archived: boolean;
  deleted: boolean;
  /** The stored claim, live or expired. */
  claim: { actor: string; expiresAt: string } | null;
  /** How many of its blockers are open (see isBlockerOpen). */
  openBlockers: number;
}

export interface ReadinessOptions {
  /** The time claims are judged against (ISO). */
  now: string;
  /** The caller; their own claim does not make a task unready for them. */
  actor?: string;
  /** Count `backlog` tasks as ready too. */
  includeBacklog?: boolean;
}

/** A blocker stops blocking once resolved (done/canceled) or deleted. */
export function isBlockerOpen(b: { category: Category; deleted: boolean }): boolean {
  return !b.deleted && !RESOLVED_CATEGORIES.includes(b.category);
}

export function isClaimLive(claim: { actor: string; expiresAt: string } | null, now: string): boolean {
  return claim !== null && claim.expiresAt > now;
}

/**
 * DESIGN §2: todo (or backlog when asked), all blockers resolved, not archived, no live claim by
 * someone else. A task whose claim lease expired while in progress was abandoned (its agent
 * crashed or stopped heartbeating): it is ready again, so the work returns to the queue.
 */
export function isReady(t: ReadinessInput, opts: ReadinessOptions): boolean {
  const abandoned = t.claim !== null && !isClaimLive(t.claim, opts.now) && t.category === 'in_progress';
  const categoryOk = t.category === 'todo' || (opts.includeBacklog === true && t.category === 'backlog') || abandoned;
  if (!categoryOk || t.archived || t.deleted) return false;
  if (t.openBlockers > 0) return false;
  if (isClaimLive(t.claim, opts.now) && t.claim!.actor !== opts.actor) return false;
  return true;
}
