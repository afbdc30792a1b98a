/** Output schemas shared by several ops. */
import * as z from 'zod';
import { lazy } from '../core/model/lazy.js';
import { Project } from '../core/model/project.js';
import { ListedTask, Task } from '../core/model/task.js';

export const TaskOut = lazy(() => z.object({ task: Task() }));
export const TaskListOut = lazy(() =>
  z.object({
    tasks: z.array(ListedTask()),
    total: z.number().int().describe('Matching tasks across all pages'),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  }),
);
export const ProjectOut = lazy(() => z.object({ project: Project() }));
