/**
 * PostgreSQL wakes live views by LISTEN/NOTIFY: a change feed whose poll never comes (an hour
 * apart) still delivers a commit made through another store, as a replica's would be.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { followChanges, type ChangeFeed } from '../../src/core/services/change-feed.js';
import type { ActivityEvent } from '../../src/core/model/activity.js';
import { onPostgres } from '../helpers/engine.js';
import { waitFor } from '../helpers/wait.js';
import { tempCairn } from '../helpers/workspace.js';

const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of closing.splice(0).reverse()) await f();
});

describe.skipIf(!onPostgres)('commit notifications', () => {
  it('a feed that never polls still gets a commit from another store, and again after more commits', async () => {
    const writer = tempCairn();
    closing.push(() => writer.done());
    await writer.call('create_project', { key: 'API', name: 'API' });
    const replica: Cairn = openCairn({ db: writer.ws.db, actor: 'replica' });
    closing.push(() => replica.close());
    const feed: ChangeFeed = await followChanges(replica.store, { intervalMs: 3_600_000 });
    closing.push(() => feed.close());
    const got: ActivityEvent[] = [];
    feed.subscribe((batch) => got.push(...batch));
    // The LISTEN connection is made in the background: a commit before it is caught by the first wake-up.
    await writer.call('create_task', { project: 'API', title: 'first' });
    await waitFor(() => got.some((e) => e.type === 'task.created'), 'the first commit delivered without a poll');
    await writer.call('create_task', { project: 'API', title: 'second' });
    await writer.call('update_task', { id: 'API-1', title: 'first, renamed' });
    await waitFor(() => got.length >= 3, 'later commits delivered without a poll');
    expect(got.map((e) => e.type)).toEqual(['task.created', 'task.created', 'task.updated']);
  });
});
