/**
 * Idempotency keys with rules (issue 31, items 3 and 6): a key is its token's own, remembers what
 * its first request asked (another body under the same key is refused, not answered as a replay),
 * expires after its retention (handoff keys excepted), and is kept by the write that creates the
 * workspace.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { manualClock } from '../helpers/core.js';
import { serve, type Served } from './http-harness.js';

let s: Served | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

const keyed = (key: string, extra: Record<string, string> = {}) => ({ 'idempotency-key': key, ...extra });
const titles = async (x: Served, headers: Record<string, string> = {}): Promise<string[]> =>
  (await x.call('GET', '/api/v1/tasks?allProjects=true&includeDone=true&limit=100', undefined, headers)).body.tasks.map((t: { title: string }) => t.title).sort();

describe('Idempotency-Key rules', () => {
  it('the write that creates the workspace keeps its key: the repeat is a replay, not a second create', async () => {
    s = await serve();
    const first = await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' }, keyed('make-api'));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' }, keyed('make-api'));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await s.call('GET', '/api/v1/projects')).body.projects.map((p: { key: string }) => p.key)).toEqual(['API']);
  });

  it('a key belongs to the token that sent it: the same key from another token is another write', async () => {
    s = await serve();
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    const ctx = { store: s.store, clock: systemClock, actor: 'admin' };
    const one = (await createToken(ctx, { name: 'agent-one', scope: 'write' })).secret;
    const two = (await createToken(ctx, { name: 'agent-two', scope: 'write' })).secret;
    const post = (secret: string) => s!.call('POST', '/api/v1/tasks', { project: 'API', title: 'Nightly report' }, keyed('report-1', { authorization: `Bearer ${secret}` }));

    const a = await post(one);
    const b = await post(two);
    const a2 = await post(one);
    expect([a.status, b.status, a2.status]).toEqual([201, 201, 201]);
    expect(b.body.task.id).not.toBe(a.body.task.id);
    expect(a2.body.task.id).toBe(a.body.task.id);
    expect(await titles(s, { authorization: `Bearer ${one}` })).toEqual(['Nightly report', 'Nightly report']);
  });

  it('the same key with another body is IDEMPOTENCY_KEY_REUSED and changes nothing; the same body in another key order is a replay', async () => {
    s = await serve();
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    const first = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'Fix login', priority: 'high' }, keyed('k1'));
    expect(first.status).toBe(201);
    const other = await s.call('POST', '/api/v1/tasks', { project: 'API', title: 'Fix logout', priority: 'high' }, keyed('k1'));
    expect([other.status, other.body.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect(other.body.error.message).toContain('with other arguments');
    const reordered = await s.call('POST', '/api/v1/tasks', { priority: 'high', title: 'Fix login', project: 'API' }, keyed('k1'));
    expect([reordered.status, reordered.body.task.id]).toEqual([201, first.body.task.id]);
    expect(await titles(s)).toEqual(['Fix login']);
  });

  it('keys expire after the retention (CAIRN_IDEMPOTENCY_DAYS); a handoff key is kept for good', async () => {
    const clock = manualClock('2026-11-01T00:00:00.000Z');
    s = await serve({ clock, keyRetentionDays: 2 });
    await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
    const task = () => s!.call('POST', '/api/v1/tasks', { project: 'API', title: 'Rotate keys' }, keyed('rotate'));
    const handoff = () => s!.call('POST', '/api/v1/handoffs', { target: 'API', title: 'Handed over' }, keyed('handoff-1'));
    const t1 = await task();
    const h1 = await handoff();
    expect([t1.status, h1.status], JSON.stringify(h1.body)).toEqual([201, 200]);

    clock.advance(47 * 3_600_000); // within two days: both replay
    expect((await task()).body.task.id).toBe(t1.body.task.id);
    expect((await handoff()).body).toMatchObject({ taskId: h1.body.taskId, replayed: true });

    clock.advance(2 * 3_600_000); // past two days: the task key is forgotten, the handoff's is not
    const t2 = await task();
    expect(t2.status).toBe(201);
    expect(t2.body.task.id).not.toBe(t1.body.task.id);
    expect((await handoff()).body).toMatchObject({ taskId: h1.body.taskId, replayed: true });
    expect(await titles(s)).toEqual(['Handed over', 'Rotate keys', 'Rotate keys']);
  });
});

describe('CAIRN_IDEMPOTENCY_DAYS', () => {
  it('takes a positive number of days and refuses anything else before the server starts', async () => {
    const { envOptions } = await import('../../src/http/main.js');
    expect(envOptions({ CAIRN_IDEMPOTENCY_DAYS: '0.5' }).keyRetentionDays).toBe(0.5);
    for (const bad of ['0', '-1', 'week', '']) expect(() => envOptions({ CAIRN_IDEMPOTENCY_DAYS: bad })).toThrow(/CAIRN_IDEMPOTENCY_DAYS must be a number of days/);
  });
});
