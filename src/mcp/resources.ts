/**
 * MCP resources: cairn://projects, cairn://projects/{key} (the board) and cairn://tasks/{id} (the
 * full task), listed, with templates and argument completion. Reads go through the same ops as tools.
 */
import { type McpServer, ProtocolError, ProtocolErrorCode, ResourceTemplate } from '@modelcontextprotocol/server';
import { CairnError, toCairnError } from '../core/errors.js';
import { runOp, type OpContext } from '../ops/index.js';
import { listProjectsOp } from '../ops/project-ops.js';
import { getTaskOp, listTasksOp } from '../ops/task-ops.js';
import { boardOverviewOp } from '../ops/work-ops.js';
import { errorText } from './tool-result.js';

export const PROJECTS_URI = 'cairn://projects';
export const projectUri = (key: string): string => `cairn://projects/${key}`;
export const taskUri = (id: string): string => `cairn://tasks/${id}`;

/** How many tasks resources/list and completion offer: the most recently updated open ones. */
const LISTED_TASKS = 200;

const json = (uri: string, value: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] });

/** A miss is InvalidParams (what the SDK answers for unknown URIs); the message is our error text. */
function readError(err: unknown): ProtocolError {
  const e = toCairnError(err);
  const code = e.kind === 'internal' ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
  return new ProtocolError(code, errorText(e));
}

const one = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

export function registerResources(server: McpServer, context: () => Promise<OpContext>): void {
  const projectKeys = async (): Promise<string[]> => (await runOp(listProjectsOp, await context(), {})).projects.map((p) => p.key);
  const recentTasks = async () => {
    const ctx = await context();
    return (await runOp(listTasksOp, ctx, { sort: 'updated', limit: LISTED_TASKS, ...(ctx.defaultProject ? { project: ctx.defaultProject } : {}) })).tasks;
  };

  server.registerResource(
    'projects',
    PROJECTS_URI,
    { title: 'Projects', description: 'Every project with key, name, root, workflow statuses and task count.', mimeType: 'application/json' },
    async (uri) => {
      try {
        return json(uri.href, await runOp(listProjectsOp, await context(), {}));
      } catch (err) {
        throw readError(err);
      }
    },
  );

  server.registerResource(
    'project-board',
    new ResourceTemplate('cairn://projects/{key}', {
      list: async () => ({
        resources: (await projectKeys()).map((key) => ({ uri: projectUri(key), name: `${key} board`, mimeType: 'application/json' })),
      }),
      complete: { key: async (v) => (await projectKeys()).filter((k) => k.startsWith(v.toUpperCase())) },
    }),
    { title: 'Project board', description: 'A project board: lanes with counts and card summaries, totals, blocked tasks. Subscribe to hear when it changes.', mimeType: 'application/json' },
    async (uri, vars) => {
      try {
        const key = one(vars.key);
        if (!key) throw new CairnError('VALIDATION_ERROR', 'The URI needs a project key: cairn://projects/{key}.');
        return json(uri.href, await runOp(boardOverviewOp, await context(), { project: key, cardsPerLane: 50 }));
      } catch (err) {
        throw readError(err);
      }
    },
  );

  server.registerResource(
    'task',
    new ResourceTemplate('cairn://tasks/{id}', {
      list: async () => ({
        resources: (await recentTasks()).map((t) => ({ uri: taskUri(t.id), name: t.id, title: t.title, mimeType: 'application/json' })),
      }),
      complete: {
        id: async (v) => {
          const want = v.toUpperCase();
          return (await recentTasks())
            .map((t) => t.id)
            .filter((id) => id.startsWith(want))
            .slice(0, 100);
        },
      },
    }),
    { title: 'Task', description: 'The full task as JSON (description, checklist, comments, blockedBy, blocks, children, isReady). Subscribe to hear when it changes.', mimeType: 'application/json' },
    async (uri, vars) => {
      try {
        return json(uri.href, (await runOp(getTaskOp, await context(), { id: one(vars.id) })).task);
      } catch (err) {
        throw readError(err);
      }
    },
  );
}
