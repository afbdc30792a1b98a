/**
 * One paging rule (src/core/rules/page.ts): every op with a `limit` takes its default and ceiling
 * from the table, and every list says when more exists, so nothing is cut silently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { MAX_EVENTS_PER_PAGE, MAX_TASKS_PER_PAGE, PAGES } from '../../src/core/rules/page.js';
import { OPS } from '../../src/ops/index.js';
import { tempCairn } from '../helpers/workspace.js';

describe('the page table', () => {
  const paged = OPS.filter((op) => 'limit' in op.input.shape);

  it('covers every op that takes a limit, and only those', () => {
    expect(paged.map((op) => op.name).sort()).toEqual(Object.keys(PAGES).sort());
  });

  it.each(paged.map((op) => [op.name, op] as const))('%s takes its default and ceiling from the table', (name, op) => {
    const limit = (op.input.shape as Record<string, z.ZodType>).limit!;
    const page = PAGES[name as keyof typeof PAGES];
    expect(limit.parse(undefined)).toBe(page.default);
    expect(limit.safeParse(page.max).success).toBe(true);
    expect(limit.safeParse(page.max + 1).success).toBe(false);
    expect(page.max).toBe(['task_history', 'changes_since'].includes(name) ? MAX_EVENTS_PER_PAGE : MAX_TASKS_PER_PAGE);
  });

  it.each(paged.map((op) => [op.name, op] as const))('%s says when more exists', (_name, op) => {
    const shape = (op.output as z.ZodObject).shape as Record<string, unknown>;
    expect('nextCursor' in shape || 'hasMore' in shape).toBe(true);
  });
});

describe('lists that say what they left out', () => {
  const c = tempCairn();
  beforeAll(async () => {
    await c.call('create_project', { key: 'PG', name: 'Paging' });
    for (const title of ['one', 'two', 'three']) await c.call('create_task', { project: 'PG', title });
    await c.call('update_task', { id: 'PG-1', title: 'one again' });
    await c.call('update_task', { id: 'PG-1', priority: 'high' });
  });
  afterAll(() => c.done());

  it('next_tasks: hasMore when more are ready than the page holds', async () => {
    expect(await c.call('next_tasks', { project: 'PG', limit: 2 })).toMatchObject({ hasMore: true });
    expect(await c.call('next_tasks', { project: 'PG', limit: 3 })).toMatchObject({ hasMore: false });
  });

  it('task_history: the newest events, and hasMore when older ones were left out', async () => {
    const all = await c.call('task_history', { id: 'PG-1' });
    expect(all.hasMore).toBe(false);
    expect(all.events.length).toBe(3);
    const newest = await c.call('task_history', { id: 'PG-1', limit: 2 });
    expect(newest.hasMore).toBe(true);
    expect(newest.events.map((e) => e.seq)).toEqual(all.events.slice(1).map((e) => e.seq));
  });
});
