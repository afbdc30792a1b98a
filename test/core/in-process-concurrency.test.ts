/** Concurrent calls inside one process: on one Cairn, and on several Cairn instances opened on the same file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { allEvents, allTasks, integrityCheck } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let others: Cairn[];
beforeEach(async () => {
  c = tempCairn();
  others = Array.from({ length: 6 }, (_, i) => openCairn({ db: c.ws.db, actor: `agent:${i}` }));
  await c.call('create_project', { key: 'API', name: 'API' });
});
afterEach(async () => {
  for (const o of others) await o.close();
  await c.done();
});

const outcome = (r: PromiseSettledResult<unknown>) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { code: string }).code);

describe('in-process concurrency', () => {
  it('unawaited calls on one instance are serialised: every create lands, numbers are dense', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => c.call('create_task', { project: 'API', title: `t${i}` })));
    expect(results.map((r) => Number(r.task.id.split('-')[1])).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await allTasks(c)).toHaveLength(40);
  });

  it('several instances on one file racing for a claim: one winner, the rest ALREADY_CLAIMED (not BUSY)', async () => {
    await c.call('create_task', { project: 'API', title: 'prize' });
    const results = await Promise.allSettled(others.map((o) => o.call('claim_task', { id: 'API-1' })));
    expect(results.map(outcome).sort()).toEqual(['ALREADY_CLAIMED', 'ALREADY_CLAIMED', 'ALREADY_CLAIMED', 'ALREADY_CLAIMED', 'ALREADY_CLAIMED', 'ok']);
  });

  it('several instances updating with the same expectedVersion: one wins, the rest VERSION_CONFLICT', async () => {
    await c.call('create_task', { project: 'API', title: 'contended' });
    const results = await Promise.allSettled(others.map((o, i) => o.call('update_task', { id: 'API-1', title: `by ${i}`, expectedVersion: 1 })));
    expect(results.map(outcome).sort()).toEqual(['VERSION_CONFLICT', 'VERSION_CONFLICT', 'VERSION_CONFLICT', 'VERSION_CONFLICT', 'VERSION_CONFLICT', 'ok']);
    expect((await c.call('get_task', { id: 'API-1' })).task.version).toBe(2);
  });

  it('mixed reads and writes from several instances all complete and every write has its event', async () => {
    const calls = others.flatMap((o, i) => [
      o.call('create_task', { project: 'API', title: `w${i}`, labels: ['mixed'] }),
      o.call('list_tasks', {}),
      o.call('search_tasks', { query: 'w*' }),
      o.call('next_tasks', {}),
    ]);
    await Promise.all(calls);
    expect((await c.call('list_tasks', { labels: ['mixed'] })).total).toBe(others.length);
    expect((await allEvents(c)).filter((e) => e.type === 'task.created')).toHaveLength(others.length);
    expect(await integrityCheck(c.ws.db)).toBe('ok');
  });
});
