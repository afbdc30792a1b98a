/**
 * Import and export: whole workspaces and other tools' task files, read and written on the machine
 * that runs Cairn. They reach that machine's files, so only a caller who may administer it runs
 * them (Op.admin): the local user, or an admin token that reaches every project.
 */
import * as z from 'zod';
import { EXPORT_FORMATS, SOURCES } from '../core/model/transfer.js';
import { exportTo } from '../core/services/export.js';
import { runImport } from '../core/services/import/index.js';
import { defineOp } from './op.js';

const ImportReport = () =>
  z.object({
    source: z.enum(SOURCES),
    dryRun: z.boolean(),
    projects: z.object({
      created: z.array(z.string()),
      existing: z.array(z.string()),
      rooted: z.array(z.object({ key: z.string(), root: z.string(), because: z.string() })).describe('New projects rooted at a folder: agents started inside it default to that project'),
    }),
    tasks: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() }),
    renumbered: z.array(z.object({ from: z.string(), to: z.string() })).describe('Tasks that got another number here than they had'),
    warnings: z.array(z.string()),
  });

export const importTasksOp = defineOp({
  name: 'import_tasks',
  toolset: 'admin',
  title: 'Import tasks',
  description:
    "Import a Cairn export or another tool's tasks (castle.db, a DevPlanner workspace, a folder with .taskmaster/, backlog/ or .beads/) in one transaction. Importing the same source again updates what changed and duplicates nothing.",
  input: () =>
    z.object({
      path: z.string().min(1).describe('The file or folder, on the machine that runs Cairn (relative: to its working directory)'),
      from: z.enum(SOURCES).optional().describe('Its format; detected when left out'),
      project: z.string().optional().describe('Put every task in this project (created when missing)'),
      dryRun: z.boolean().default(false).describe('Report what would change and write nothing'),
    }),
  output: ImportReport,
  readOnly: false,
  admin: true,
  rest: { method: 'POST', path: '/import' },
  run: (ctx, input) =>
    runImport(ctx, {
      ...input,
      ...(ctx.cwd ? { cwd: ctx.cwd } : {}),
      ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
      ...(ctx.openForeignSqlite ? { openSqlite: ctx.openForeignSqlite } : {}),
    }),
});

export const exportTasksOp = defineOp({
  name: 'export_tasks',
  toolset: 'admin',
  title: 'Export tasks',
  description:
    'Export the workspace as JSONL (lossless: projects, workflows, tasks, checklists, comments, links, claims, history; never tokens) or as one markdown file per task. Without out, the JSONL is the answer.',
  input: () =>
    z.object({
      format: z.enum(EXPORT_FORMATS).default('jsonl'),
      out: z.string().min(1).optional().describe('A file (jsonl) or folder (markdown) on the machine that runs Cairn'),
      project: z.string().optional().describe('Only this project'),
      includeArchived: z.boolean().default(false).describe('Include archived projects and tasks'),
      since: z.number().int().min(0).optional().describe('Only tasks changed after this event seq, and only those events'),
    }),
  output: () =>
    z.object({
      format: z.enum(EXPORT_FORMATS),
      projects: z.number().int(),
      tasks: z.number().int(),
      comments: z.number().int(),
      events: z.number().int(),
      out: z.string().optional().describe('Where it was written'),
      jsonl: z.string().optional().describe('The export itself, when out was left out'),
    }),
  readOnly: true,
  admin: true,
  rest: { method: 'POST', path: '/export' },
  run: (ctx, input) => exportTo(ctx, input),
});
