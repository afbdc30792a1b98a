/**
 * One paging rule for every list: a page holds at most 200 tasks or 1,000 events (an event is a
 * fraction of a task's size), each list has its own default page, and every answer says whether
 * more exists (`nextCursor`, `hasMore`, or a lane's count beside its cards). Nothing is cut without
 * saying so. test/rules/page-policy.test.ts holds every op with a `limit` to this table.
 */
import * as z from 'zod';

export const MAX_TASKS_PER_PAGE = 200;
export const MAX_EVENTS_PER_PAGE = 1000;

/** Each list's default page and ceiling. */
export const PAGES = {
  list_tasks: { default: 50, max: MAX_TASKS_PER_PAGE },
  next_tasks: { default: 10, max: MAX_TASKS_PER_PAGE },
  search_tasks: { default: 20, max: MAX_TASKS_PER_PAGE },
  task_history: { default: 50, max: MAX_EVENTS_PER_PAGE },
  changes_since: { default: 100, max: MAX_EVENTS_PER_PAGE },
} as const;

/** The `limit` argument of a list, from the table. */
export function pageLimit(list: keyof typeof PAGES) {
  const p = PAGES[list];
  return z.number().int().min(1).max(p.max).default(p.default);
}
