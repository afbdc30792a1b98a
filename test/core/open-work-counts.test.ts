/**
 * board_overview's blocked and in-progress figures and next_tasks' empty-queue hint hold for any
 * number of tasks (issue 19 item 4): counted by the engine, not from the first few hundred rows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
beforeEach(() => {
  c = tempCairn();
});
afterEach(async () => c.done());

describe('open work counted at 2,000 tasks', () => {
  it('board_overview and next_tasks count every blocked and in-progress task', { timeout: 120_000 }, async () => {
    await c.call('create_project', { key: 'BIG', name: 'Big' });
    // 2,000 tasks: one blocker in progress, 1,700 urgent todo tasks waiting on it (they fill any
    // first page in priority order), 250 in the blocked lane and 49 more in progress, low priority.
    const { task: blocker } = await c.call('create_task', { project: 'BIG', title: 'the blocker', status: 'in_progress', assignee: 'ann', priority: 'low' });
    for (let i = 0; i < 1700; i++) await c.call('create_task', { project: 'BIG', title: `waiting ${i}`, priority: 'urgent', blockedBy: [blocker.id] });
    for (let i = 0; i < 250; i++) await c.call('create_task', { project: 'BIG', title: `stuck ${i}`, status: 'blocked', priority: 'low' });
    for (let i = 0; i < 49; i++) await c.call('create_task', { project: 'BIG', title: `doing ${i}`, status: 'in_progress', assignee: i % 2 ? 'ann' : 'bob', priority: 'low' });

    const board = await c.call('board_overview', { project: 'BIG', cardsPerLane: 0 });
    expect(board.summary.totalTasks).toBe(2000);
    expect(board.blockedCount).toBe(1950);
    expect(board.blocked).toHaveLength(20);
    expect(board.inProgressCounts).toEqual({ ann: 25, bob: 25 });
    expect(Object.fromEntries(Object.entries(board.inProgressByAssignee).map(([k, v]) => [k, v.length]))).toEqual({ ann: 25, bob: 25 });
    expect(board.inProgressByAssignee.ann).toContain(blocker.id);

    const next = await c.call('next_tasks', { project: 'BIG' });
    expect(next.tasks).toEqual([]);
    expect(next.blocked).toEqual({ count: 1700, topBlockers: [blocker.id] });
  });
});
