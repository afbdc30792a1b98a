/** The project: a key, its workflow of statuses (board lanes), and how agents find it (root, aliases). */
import * as z from 'zod';
import { lazy } from './lazy.js';
import { Status } from './workflow.js';

export const ProjectName = z.string().trim().min(1, 'project name must not be empty').max(100, 'project name must be at most 100 characters');
export const Alias = z.string().trim().min(1, 'an alias must not be empty').max(200, 'an alias must be at most 200 characters');
export const Aliases = z.array(Alias).max(20, 'at most 20 aliases per project');
export const ProjectDescription = z.string().max(10_000, 'project description must be at most 10,000 characters');
export const ProjectRoot = z.string().trim().min(1, 'root must not be empty').max(1000, 'root must be at most 1,000 characters');

export const Project = lazy(() =>
  z.object({
    key: z.string(),
    uid: z.string(),
    name: z.string(),
    description: z.string(),
    root: z.string().nullable().describe('Repository path; agents inside it default to this project'),
    aliases: z.array(z.string()),
    requireEvidence: z.boolean().describe('Completions must carry evidence'),
    statuses: z.array(Status()),
    archived: z.boolean(),
    taskCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
export type Project = z.infer<ReturnType<typeof Project>>;
