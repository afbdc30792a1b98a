/**
 * create_task answers a task without blockers from the row it wrote, not by reading it back
 * (services/tasks.ts): for any input, that answer must equal what get_task reads afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
beforeAll(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'API', name: 'API', template: 'default' } as never);
  await c.call('create_task', { project: 'API', title: 'Epic', kind: 'epic' });
});
afterAll(async () => c.done());

// Lone surrogates included: JSON allows them, SQLite's UTF-8 cannot hold them.
const unit = fc.oneof(fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }), fc.constantFrom('\ud800', '\udfff', '😀', ' '));
const text = fc.string({ minLength: 1, maxLength: 30, unit }).filter((s) => s.trim().length > 0);
const input = fc.record(
  {
    title: text,
    description: fc.string({ maxLength: 80, unit }),
    status: fc.constantFrom('backlog', 'todo', 'in_progress', 'review', 'done', 'canceled'),
    kind: fc.constantFrom('task', 'feature', 'bug', 'chore', 'spike', 'epic'),
    priority: fc.constantFrom('none', 'low', 'medium', 'high', 'urgent'),
    score: fc.double({ min: -1000, max: 1000, noNaN: true }),
    labels: fc.array(fc.constantFrom('auth', 'ui', ' Spaced ', 'perf', 'auth'), { maxLength: 4 }),
    assignee: fc.constantFrom('agent:a', 'ann'),
    parentId: fc.constant('API-1'),
    checklist: fc.array(text, { maxLength: 3 }),
    anchors: fc.array(fc.constantFrom('src/a.ts', 'docs/b.md'), { maxLength: 2 }),
    links: fc.record({ branch: fc.constant('feat/x'), prNumber: fc.integer({ min: 1, max: 999 }) }, { requiredKeys: [] }),
    origin: fc.constant('WEB'),
    documentPath: fc.constant('docs/x.md'),
  },
  { requiredKeys: ['title'] },
);

describe('create_task without blockers', () => {
  it('answers exactly what get_task reads back', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (args) => {
        const created = (await c.call('create_task', { project: 'API', ...args } as never)).task;
        expect(created).toEqual((await c.call('get_task', { id: created.id })).task);
      }),
      { numRuns: 60 },
    );
  });
});
