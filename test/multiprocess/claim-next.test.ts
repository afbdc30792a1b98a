/**
 * claim_next across processes, through the BUILT library (dist/): 8 processes × 50 calls on one
 * file never hand one task to two agents, never skip a ready task (the claimed set is exactly the
 * head of the ready queue) and never take a blocked one.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { integrityCheck } from '../helpers/core.js';
import { runTogether } from '../helpers/children.js';
import { tempCairn } from '../helpers/workspace.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run `npm run build` first (npm test does).');
});

const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;

describe('claim_next across processes', () => {
  it('8 processes × 50 calls: no task claimed twice, none skipped while ready, none blocked taken', async () => {
    c = tempCairn({ actor: 'parent' });
    await c.call('create_project', { key: 'MP', name: 'Multi-process' });
    const PROCS = 8;
    const CALLS = 50;
    const READY = 480; // more than the 400 calls: the ones left over must be the tail of the queue
    let seed = 11;
    const r = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < READY; i++) {
      await c.call('create_task', { project: 'MP', title: `ready ${i}`, priority: PRIORITIES[Math.floor(r() * 5)]!, score: Math.floor(r() * 3) });
    }
    const blocker = (await c.call('create_task', { project: 'MP', title: 'blocker', status: 'backlog' })).task;
    const blocked = new Set<string>();
    for (let i = 0; i < 20; i++) blocked.add((await c.call('create_task', { project: 'MP', title: `blocked ${i}`, priority: 'urgent', blockedBy: [blocker.id] })).task.id);
    // The ready queue before the race, in order.
    const queue: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await c.call('list_tasks', { project: 'MP', ready: true, sort: 'ready', limit: 200, ...(cursor ? { cursor } : {}) });
      queue.push(...page.tasks.map((t) => t.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(queue).toHaveLength(READY);

    const results = await runTogether<{ actor: string; ids: Array<string | null>; errors: string[] }>(
      fixture('next-claimer.mjs'),
      Array.from({ length: PROCS }, (_, i) => [c!.ws.db, `agent:${i}`, String(CALLS), 'MP']),
    );
    for (const res of results) {
      expect(res.code, res.stderr).toBe(0);
      expect(res.result.errors).toEqual([]);
      expect(res.result.ids).toHaveLength(CALLS);
    }
    const claimed = results.flatMap((res) => res.result.ids);
    expect(claimed.filter((id) => id === null)).toEqual([]); // a ready task was always there
    expect(new Set(claimed).size).toBe(PROCS * CALLS); // never the same task twice
    expect(claimed.filter((id) => blocked.has(id!))).toEqual([]);
    expect(new Set(claimed)).toEqual(new Set(queue.slice(0, PROCS * CALLS))); // the head of the queue, nothing skipped

    // Each claim is held by the agent it was handed to, and recorded once.
    for (const res of results) {
      for (const id of res.result.ids.slice(0, 5)) {
        const { task } = await c.call('get_task', { id: id! });
        expect(task).toMatchObject({ status: 'in_progress', claim: { actor: res.result.actor }, version: 2 });
      }
    }
    expect((await c.call('next_tasks', { project: 'MP', limit: 100 })).tasks.map((t) => t.id)).toEqual(queue.slice(PROCS * CALLS));
    expect(await integrityCheck(c.ws.db)).toBe('ok');
  }, 120_000);
});
