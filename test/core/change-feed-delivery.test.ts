/** The change feed delivers at least once: a failed read leaves its batch to the next poll (issue 19 item 4). */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/core/model/activity.js';
import type { Store, Tx } from '../../src/core/ports.js';
import { followChanges } from '../../src/core/services/change-feed.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

/** The store with its events() read failing while `failing.on` is set. */
function flakyEvents(store: Store, failing: { on: boolean }): Store {
  const wrap = (tx: Tx): Tx =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        if (prop === 'events' && failing.on) return () => Promise.reject(new Error('disk hiccup'));
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  return Object.assign(Object.create(store) as Store, {
    read: <T>(fn: (tx: Tx) => Promise<T>) => store.read((tx) => fn(wrap(tx))),
    changeToken: () => store.changeToken(),
    // The test drives every poll itself: no wake-ups from an engine that notifies commits.
    onCommit: undefined,
  });
}

describe('change feed delivery', () => {
  it('a batch whose read fails is delivered by the next poll, with nothing else committed meanwhile', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'EV', name: 'Events' });
    const failing = { on: false };
    const errors: unknown[] = [];
    const feed = await followChanges(flakyEvents(c.store, failing), { intervalMs: 60_000, onError: (e) => errors.push(e) });
    const got: ActivityEvent[] = [];
    feed.subscribe((batch) => got.push(...batch));
    const from = feed.lastSeq;
    await c.call('create_task', { project: 'EV', title: 'one' });
    await c.call('create_task', { project: 'EV', title: 'two' });
    failing.on = true;
    await feed.poll();
    expect(errors).toHaveLength(1);
    expect(got).toHaveLength(0);
    expect(feed.lastSeq).toBe(from);
    failing.on = false;
    await feed.poll();
    expect(got.map((e) => e.type)).toEqual(['task.created', 'task.created']);
    expect(feed.lastSeq).toBe(got.at(-1)!.seq);
    await feed.close();
  });

  it('a listener that throws does not keep the batch from the others', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'EV', name: 'Events' });
    const errors: unknown[] = [];
    const feed = await followChanges(c.store, { intervalMs: 60_000, onError: (e) => errors.push(e) });
    const got: ActivityEvent[] = [];
    feed.subscribe(() => {
      throw new Error('listener bug');
    });
    feed.subscribe((batch) => got.push(...batch));
    await c.call('create_task', { project: 'EV', title: 'one' });
    await feed.poll();
    expect(got.map((e) => e.type)).toEqual(['task.created']);
    expect(errors).toHaveLength(1);
    await feed.close();
  });
});
