/**
 * What a write returns is what a read finds right after it. Writes that change only the task's own
 * columns answer from the row they wrote instead of reading it back (task-write.ts), and a task with
 * no checklist items skips reading them (hydrate.ts): this holds each write's answer to get_task's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;

beforeAll(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'API', name: 'API' });
  await c.call('create_task', { project: 'API', title: 'Epic', kind: 'epic' }); // API-1
  await c.call('create_task', { project: 'API', title: 'Blocker', labels: ['infra'] }); // API-2
  await c.call('create_task', { project: 'API', title: 'Subject', labels: ['auth', 'ui'], checklist: ['One'] }); // API-3
  await c.call('create_task', { project: 'API', title: 'Plain' }); // API-4
});
afterAll(async () => c.done());

type Answer = { task?: unknown } & Record<string, unknown>;
const taskOf = (r: Answer) => (r.task ?? r) as Record<string, unknown>;

describe('a write answers with the task as get_task then shows it', () => {
  const writes: Array<[string, string, Record<string, unknown>]> = [
    ['update_task', 'priority', { id: 'API-4', priority: 'urgent' }],
    ['update_task', 'title and description', { id: 'API-4', title: 'Plain, renamed', description: 'Now with text' }],
    ['update_task', 'kind, assignee, score, substatus', { id: 'API-3', kind: 'bug', assignee: 'ana', score: 7.5, substatus: 'review' }],
    ['update_task', 'links and anchors', { id: 'API-3', links: { branch: 'feat/x', prNumber: 4 }, anchors: ['src/a.ts'] }],
    ['update_task', 'status and position', { id: 'API-4', status: 'in_progress' }],
    ['update_task', 'labels', { id: 'API-3', addLabels: ['db'], removeLabels: ['ui'] }],
    ['update_task', 'parent', { id: 'API-3', parentId: 'API-1' }],
    ['add_dependency', 'a blocker', { taskId: 'API-3', blockedBy: 'API-2' }],
    [
      'update_checklist',
      'items of a task that had one',
      {
        id: 'API-3',
        ops: [
          { op: 'add', text: 'Two' },
          { op: 'check', index: 0 },
        ],
      },
    ],
    ['update_checklist', 'a first item', { id: 'API-4', ops: [{ op: 'add', text: 'First' }] }],
    ['add_comment', 'a comment', { id: 'API-4', body: 'Noted' }],
    ['claim_task', 'a claim', { id: 'API-2' }],
    ['release_task', 'a release', { id: 'API-2' }],
    ['complete_task', 'completing a blocker', { id: 'API-2' }],
    ['archive_task', 'an archive', { id: 'API-2' }],
    ['delete_task', 'a delete', { id: 'API-4' }],
    ['restore_task', 'a restore', { id: 'API-4' }],
  ];
  for (const [op, what, args] of writes) {
    it(`${op}: ${what}`, async () => {
      const written = taskOf((await c.call(op as never, args as never)) as Answer);
      const read = taskOf((await c.call('get_task', { id: written.id as string })) as unknown as Answer);
      expect(written).toEqual(read);
    });
  }
});
