/**
 * MCP list rows leave out what says nothing (src/mcp/detail-fields.ts), and the MCP Apps views turn
 * rows back into the summaries the board's components read, from ROW_OMITS and SUMMARY_EXTRAS: a row
 * asked for those fields, with ROW_OMITS under it, must be the summary REST answers.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROW_OMITS, SUMMARY_EXTRAS, toRow } from '../../src/mcp/detail-fields.js';
import { tempCairn } from '../helpers/workspace.js';

const c = tempCairn();
beforeAll(async () => {
  await c.call('create_project', { key: 'ROW', name: 'Rows' });
  await c.call('create_task', { project: 'ROW', title: 'Plain' });
  await c.call('create_task', { project: 'ROW', title: 'Epic', kind: 'epic' });
  await c.call('create_task', { project: 'ROW', title: 'Full', kind: 'bug', assignee: 'agent:x', parentId: 'ROW-2', checklist: ['a'], substatus: 'waiting', slug: 'full' });
  await c.call('claim_task', { id: 'ROW-3' });
});
afterAll(() => c.done());

it('a row with the summary extras, over ROW_OMITS, is the summary, for plain and full tasks alike', async () => {
  const { tasks } = await c.call('list_tasks', { project: 'ROW', includeDone: true, sort: 'id' });
  expect(tasks.map((t) => t.id)).toEqual(['ROW-1', 'ROW-2', 'ROW-3']);
  for (const t of tasks) expect({ ...ROW_OMITS, ...toRow(t, SUMMARY_EXTRAS) }).toEqual(t);
  // The plain task's row leaves out every field ROW_OMITS names; the full one keeps them all.
  expect(Object.keys(toRow(tasks[0]!, [])).filter((k) => k in ROW_OMITS)).toEqual([]);
  expect(
    Object.keys(toRow(tasks[2]!, []))
      .filter((k) => k in ROW_OMITS)
      .sort(),
  ).toEqual(Object.keys(ROW_OMITS).sort());
});
