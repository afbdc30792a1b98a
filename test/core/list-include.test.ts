/** Lists bring the long fields a caller names (`include`), in the same answer; `list_projects {at}` finds the project a path is in. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempCairn } from '../helpers/workspace.js';

describe('include on list_tasks, next_tasks and search_tasks', () => {
  let c: ReturnType<typeof tempCairn>;
  afterEach(async () => c.done());

  it('adds exactly the named fields to each row, and nothing when none are named', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'API', name: 'API' });
    await c.call('create_task', { project: 'API', title: 'Login page', description: 'Form and session', links: { prUrl: 'https://example.com/pr/1' } });
    await c.call('create_task', { project: 'API', title: 'Logout' });
    await c.call('complete_task', { id: 'API-2' });

    const plain = (await c.call('list_tasks', { project: 'API', includeDone: true, sort: 'id' })).tasks[0]!;
    expect(plain).not.toHaveProperty('description');
    expect(plain).not.toHaveProperty('links');

    const rows = (await c.call('list_tasks', { project: 'API', includeDone: true, sort: 'id', include: ['description', 'links', 'completedAt'] })).tasks;
    expect(rows[0]).toMatchObject({ id: 'API-1', description: 'Form and session', links: { prUrl: 'https://example.com/pr/1' }, completedAt: null });
    expect(rows[0]).not.toHaveProperty('origin');
    expect(rows[1]!.completedAt).toEqual(expect.any(String));

    const next = (await c.call('next_tasks', { project: 'API', include: ['description'] })).tasks;
    expect(next.map((t) => [t.id, t.description])).toEqual([['API-1', 'Form and session']]);
    const found = (await c.call('search_tasks', { query: 'login', include: ['description', 'origin'] })).results;
    expect(found[0]!.task).toMatchObject({ id: 'API-1', description: 'Form and session', origin: null });

    await expect(c.call('list_tasks', { include: ['checklist'] as never })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('list_projects {at} answers the project whose root holds the path, the deepest first, or none', async () => {
    c = tempCairn();
    const repo = join(c.ws.dir, 'repo');
    const pkg = join(repo, 'packages', 'core');
    mkdirSync(pkg, { recursive: true });
    await c.call('create_project', { key: 'REPO', name: 'Repo', root: repo });
    await c.call('create_project', { key: 'CORE', name: 'Core', root: pkg });
    const at = async (path: string) => (await c.call('list_projects', { at: path })).projects.map((p) => p.key);
    expect(await at(join(pkg, 'src'))).toEqual(['CORE']);
    expect(await at(join(repo, 'docs'))).toEqual(['REPO']);
    expect(await at(c.ws.dir)).toEqual([]);
  });
});
