/** tx's TaskWithDeps (seed 002): every task in every answer carries its dependencies and readiness. */
import * as z from 'zod';
import type { Task, TaskSummary } from '../../core/model/task.js';

export const TaskWithDeps = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.string(),
  score: z.number(),
  parentId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  blockedBy: z.array(z.string()).describe('Task IDs that block this task'),
  blocks: z.array(z.string()).describe('Task IDs this task blocks'),
  children: z.array(z.string()).describe('Child task IDs'),
  isReady: z.boolean().describe('Whether task can be worked on'),
});
export type TaskWithDeps = z.infer<typeof TaskWithDeps>;

/** The detail fields a list op must `include` for its rows to become TaskWithDeps. */
export const WITH_DEPS = ['description', 'completedAt'] as const;

/** TaskWithDeps of a task, or of a list row read with `include: WITH_DEPS`. */
export function withDeps(t: TaskSummary & Partial<Pick<Task, 'description' | 'completedAt'>>): TaskWithDeps {
  return {
    id: t.id,
    title: t.title,
    description: t.description ?? '',
    status: t.status,
    score: t.score,
    parentId: t.parentId,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    completedAt: t.completedAt ?? null,
    blockedBy: t.blockedBy,
    blocks: t.blocks,
    children: t.children,
    isReady: t.isReady,
  };
}

/** tx's answer: the text, then the same data as JSON (two text blocks), and structuredContent. */
export const answer = (text: string, data: Record<string, unknown>) => ({ content: [text, JSON.stringify(data)], structured: data });

export const none = (ids: readonly string[]): string => (ids.length ? ids.join(', ') : '(none)');
