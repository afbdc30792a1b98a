/** Full-text search with the same filters as list; each hit says which fields matched and shows an excerpt. */
import * as z from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { Category } from '../model/workflow.js';
import { Kind, Labels, type TaskSummary } from '../model/task.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { summarize } from './hydrate.js';
import { buildFilter } from './tasks.js';

export const SearchTasksInput = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(500).describe('Words to find; "exact phrase", prefix*'),
  project: z.string().optional(),
  allProjects: z.boolean().default(false),
  status: z.union([z.string(), z.array(z.string())]).optional(),
  category: z.union([Category, z.array(Category)]).optional(),
  kind: z.union([Kind, z.array(Kind)]).optional(),
  labels: Labels.optional(),
  assignee: z.string().optional(),
  includeDone: z.boolean().default(true).describe('Search finished tasks too (default true)'),
  includeArchived: z.boolean().default(false),
  limit: z.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
});

export interface SearchResult {
  results: Array<{ task: TaskSummary; matchedFields: string[]; excerpt: string; rank: number }>;
  total: number;
  nextCursor: string | null;
}

export async function searchTasks(ctx: Context, input: z.infer<typeof SearchTasksInput>): Promise<SearchResult> {
  return ctx.store.read(async (tx) => {
    const { query, limit, cursor, ...rest } = input;
    const filter = await buildFilter(tx, ctx, { ...rest, deleted: false });
    const key = { query, filter };
    const offset = cursor ? decodeCursor(cursor, key) : 0;
    const { hits, total, consumed } = await tx.search(query, filter, limit, offset);
    const tasks = summarize(hits.map((h) => h.task), nowIso(ctx), ctx.actor);
    const results = hits.map((h, i) => ({ task: tasks[i]!, matchedFields: h.matchedFields, excerpt: h.excerpt, rank: h.rank }));
    return { results, total, nextCursor: offset + consumed < total ? encodeCursor(offset + consumed, key) : null };
  });
}
