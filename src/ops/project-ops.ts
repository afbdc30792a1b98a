/** Projects: list, get, create, update (workflow too), archive. */
import * as z from 'zod';
import { Project } from '../core/model/project.js';
import {
  ArchiveProjectInput,
  archiveProject,
  CreateProjectInput,
  createProject,
  getProject,
  ListProjectsInput,
  listProjects,
  ProjectRefInput,
  UpdateProjectInput,
  updateProject,
} from '../core/services/projects.js';
import { defineOp } from './op.js';
import { ProjectOut } from './schemas.js';

export const listProjectsOp = defineOp({
  name: 'list_projects',
  toolset: 'projects',
  title: 'List projects',
  description: 'All projects: key, name, root, statuses, task count. Other tools take the key as project.',
  input: ListProjectsInput,
  output: () => z.object({ projects: z.array(Project()) }),
  paramToolsets: { includeArchived: 'admin' },
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/projects' },
  run: (ctx, input) => listProjects(ctx, input),
});

export const getProjectOp = defineOp({
  name: 'get_project',
  toolset: 'projects',
  title: 'Get a project',
  description: 'One project by key or alias: workflow statuses, root, aliases, task count.',
  input: ProjectRefInput,
  output: ProjectOut,
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/projects/:key' },
  run: async (ctx, input) => ({ project: await getProject(ctx, input) }),
});

export const createProjectOp = defineOp({
  name: 'create_project',
  toolset: 'projects',
  title: 'Create a project',
  description: 'Create a project; its key (2–10 letters, e.g. API) prefixes task ids. root: the repository it serves.',
  input: CreateProjectInput,
  output: ProjectOut,
  readOnly: false,
  rest: { method: 'POST', path: '/projects' },
  run: async (ctx, input) => ({ project: await createProject(ctx, input) }),
});

export const updateProjectOp = defineOp({
  name: 'update_project',
  toolset: 'admin',
  title: 'Update a project',
  description: 'Change name, description, root, aliases, or edit the workflow with status ops (add, rename, move, recolor, recategorize, remove).',
  input: UpdateProjectInput,
  output: ProjectOut,
  readOnly: false,
  rest: { method: 'PATCH', path: '/projects/:key' },
  run: async (ctx, input) => ({ project: await updateProject(ctx, input) }),
});

export const archiveProjectOp = defineOp({
  name: 'archive_project',
  toolset: 'admin',
  title: 'Archive a project',
  description: 'Hide a project from default lists (restore: true brings it back). Its tasks are kept.',
  input: ArchiveProjectInput,
  output: ProjectOut,
  readOnly: false,
  destructive: true,
  idempotent: true,
  rest: { method: 'POST', path: '/projects/:key/archive' },
  run: async (ctx, input) => ({ project: await archiveProject(ctx, input) }),
});
