/** Full-text search with the same filters as list; each hit says which fields matched and shows an excerpt. */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { Category } from '../model/workflow.js';
import { Kind, Labels, type TaskSummary } from '../model/task.js';
import { IncludeDetails } from './details.js';
import { decodeSearchCursor, encodeSearchCursor, SEARCH_SEEN_CAP } from './cursor.js';
import type { SearchAfter } from '../ports.js';
import { summarize } from './hydrate.js';
import { buildFilter } from './tasks.js';
import { pageLimit } from '../rules/page.js';

export const SearchTasksInput = lazy(() =>
  z.object({
    query: z.string().trim().min(1, 'query must not be empty').max(500).describe('Words to find; "exact phrase", prefix*'),
    project: z.string().optional(),
    allProjects: z.boolean().default(false),
    status: z.union([z.string(), z.array(z.string())]).optional(),
    category: z.union([Category, z.array(Category)]).optional(),
    kind: z.union([Kind, z.array(Kind)]).optional(),
    labels: Labels.optional(),
    assignee: z.string().optional(),
    includeDone: z.boolean().default(true),
    includeArchived: z.boolean().default(false),
    limit: pageLimit('search_tasks'),
    cursor: z.string().max(4000).optional(),
    include: IncludeDetails(),
  }),
);

export interface SearchResult {
  results: Array<{ task: TaskSummary; matchedFields: string[]; excerpt: string; rank: number }>;
  total: number;
  nextCursor: string | null;
}

/**
 * bm25 ranks move with every write anywhere in the workspace, so (rank, number) would let a hit
 * cross the page boundary between two calls. The cursor instead names the hits shown so far and the
 * next page is the best of the rest: none repeats, none that matched throughout is skipped. Past
 * SEARCH_SEEN_CAP hits (a walk agents rarely take) it falls back to (rank, number) to stay small.
 */
function nextAfter(after: SearchAfter | undefined, consumed: Array<{ num: number; rank: number }>): SearchAfter {
  const seen = [...(after && 'seen' in after ? after.seen : []), ...consumed.map((c) => c.num)];
  if ((!after || 'seen' in after) && seen.length <= SEARCH_SEEN_CAP) return { seen };
  const last = consumed[consumed.length - 1]!;
  return { rank: last.rank, num: last.num };
}

export async function searchTasks(ctx: Context, input: z.infer<ReturnType<typeof SearchTasksInput>>): Promise<SearchResult> {
  return ctx.store.read(async (tx) => {
    const { query, limit, cursor, ...rest } = input;
    const filter = await buildFilter(tx, ctx, { ...rest, deleted: false });
    const key = { query, filter };
    const after = cursor ? decodeSearchCursor(cursor, key) : undefined;
    const { hits, total, consumed, more } = await tx.search(query, filter, limit, after);
    const tasks = summarize(
      hits.map((h) => h.task),
      nowIso(ctx),
      ctx.actor,
    );
    const results = hits.map((h, i) => ({ task: tasks[i]!, matchedFields: h.matchedFields, excerpt: h.excerpt, rank: h.rank }));
    return { results, total, nextCursor: more && consumed.length ? encodeSearchCursor(nextAfter(after, consumed), key) : null };
  });
}
