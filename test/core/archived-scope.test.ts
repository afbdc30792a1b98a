/** Archived things stay out of the way: an archived project's tasks leave unscoped reads, archived tasks cannot be claimed. */
import { afterEach, describe, expect, it } from 'vitest';
import { tempCairn } from '../helpers/workspace.js';

describe('archived projects and tasks', () => {
  let c: ReturnType<typeof tempCairn>;
  afterEach(async () => c.done());

  it('leaves an archived project out of unscoped list, next and search, but a scoped read still sees it', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'LIVE', name: 'Live' });
    await c.call('create_project', { key: 'OLD', name: 'Old' });
    await c.call('create_task', { project: 'LIVE', title: 'Keep shipping' });
    await c.call('create_task', { project: 'OLD', title: 'Keep the old thing' });
    await c.call('archive_project', { key: 'OLD' });

    expect((await c.call('next_tasks', {})).tasks.map((t) => t.id)).toEqual(['LIVE-1']);
    expect((await c.call('list_tasks', {})).tasks.map((t) => t.id)).toEqual(['LIVE-1']);
    expect((await c.call('search_tasks', { query: 'keep' })).results.map((r) => r.task.id)).toEqual(['LIVE-1']);
    expect((await c.call('list_tasks', { includeArchived: true })).tasks.map((t) => t.id).sort()).toEqual(['LIVE-1', 'OLD-1']);
    expect((await c.call('list_tasks', { project: 'OLD' })).tasks.map((t) => t.id)).toEqual(['OLD-1']);

    await c.call('archive_project', { key: 'OLD', restore: true });
    expect((await c.call('next_tasks', {})).tasks.map((t) => t.id).sort()).toEqual(['LIVE-1', 'OLD-1']);
  });

  it('refuses to claim an archived task and changes nothing', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'API', name: 'API' });
    await c.call('create_task', { project: 'API', title: 'Parked' });
    const archived = (await c.call('archive_task', { id: 'API-1' })).task;
    await expect(c.call('claim_task', { id: 'API-1' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('archived') });
    const after = (await c.call('get_task', { id: 'API-1' })).task;
    expect(after.version).toBe(archived.version);
    expect(after.claim).toBeNull();
  });
});
