/** Output schemas shared by several ops. */
import * as z from 'zod';
import { Project } from '../core/model/project.js';
import { Task, TaskSummary } from '../core/model/task.js';

export const TaskOut = z.object({ task: Task });
export const TaskListOut = z.object({
  tasks: z.array(TaskSummary),
  total: z.number().int().describe('Matching tasks across all pages'),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
});
export const ProjectOut = z.object({ project: Project });
