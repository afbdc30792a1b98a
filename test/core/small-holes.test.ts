/** Issue 22, item 7 (the core's part): duplicate aliases, `__proto__` as an argument, INVALID_ID naming its field. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { expectCode, rawCall } from '../helpers/core.js';
import { openRaw } from '../helpers/raw-db.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
beforeEach(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'API', name: 'API', aliases: ['backend', 'svc'] });
  await c.call('create_project', { key: 'WEB', name: 'Web' });
  await c.call('create_task', { project: 'API', title: 'first' });
});
afterEach(() => c.done());

describe('aliases are unique across projects', () => {
  it('create_project with an alias another project has: a conflict naming that project; nothing created', async () => {
    const e = await expectCode(c.call('create_project', { key: 'OPS', name: 'Ops', aliases: ['Backend'] }), 'PROJECT_EXISTS');
    expect(e.kind).toBe('conflict');
    expect(e.message).toContain('API');
    expect(e.message).toMatch(/backend/i);
    expect((await c.call('list_projects', {})).projects.map((p) => p.key)).toEqual(['API', 'WEB']);
  });

  it('update_project adding an alias another project has: the same conflict; an alias equal to another key too', async () => {
    const e = await expectCode(c.call('update_project', { key: 'WEB', aliases: ['svc'] }), 'PROJECT_EXISTS');
    expect(e.message).toContain('API');
    await expectCode(c.call('update_project', { key: 'WEB', aliases: ['api'] }), 'PROJECT_EXISTS');
    expect((await c.call('get_project', { key: 'WEB' })).project.aliases).toEqual([]);
    // A project may keep (or re-state) its own aliases.
    await c.call('update_project', { key: 'API', aliases: ['backend', 'svc', 'more'] });
  });
  it('a workspace that already holds a duplicate alias (made before the check): the alias is refused as ambiguous, naming both projects', async () => {
    const raw = await openRaw(c.ws.db);
    try {
      expect((await raw.run(`UPDATE projects SET aliases = '["backend"]' WHERE key = 'WEB'`)).changes).toBe(1);
    } finally {
      await raw.close();
    }
    // The workspace as a process opening it finds it (nothing remembered from before the change).
    const opened = openCairn({ db: c.ws.db, actor: 'tester' });
    try {
      const e = await expectCode(opened.call('list_tasks', { project: 'backend' }), 'PROJECT_EXISTS');
      expect(e.message).toContain('API');
      expect(e.message).toContain('WEB');
      // Keys still resolve, and removing one alias settles it.
      await opened.call('update_project', { key: 'WEB', aliases: [] });
      expect((await opened.call('list_tasks', { project: 'backend' })).tasks.map((t) => t.id)).toEqual(['API-1']);
    } finally {
      await opened.close();
    }
  });
});

describe('__proto__ is an unknown key like any other', () => {
  for (const body of ['{"project":"API","title":"x","__proto__":{"priority":"urgent"}}', '{"project":"API","title":"x","__proto__":null}']) {
    it(`create_task ${body}: VALIDATION_ERROR naming __proto__, nothing created`, async () => {
      const e = await expectCode(rawCall(c, 'create_task', JSON.parse(body)), 'VALIDATION_ERROR');
      expect(e.message).toContain('__proto__');
      expect((await c.call('list_tasks', {})).tasks).toHaveLength(1);
    });
  }

  it('constructor and prototype are refused too', async () => {
    await expectCode(rawCall(c, 'get_task', JSON.parse('{"id":"API-1","constructor":{}}')), 'VALIDATION_ERROR');
    await expectCode(rawCall(c, 'get_task', JSON.parse('{"id":"API-1","prototype":1}')), 'VALIDATION_ERROR');
  });
});

describe('INVALID_ID names the field the id came from', () => {
  it('blockedBy (add_dependency and create_task), parentId (create_task and update_task), id', async () => {
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['blockedBy', () => c.call('add_dependency', { taskId: 'API-1', blockedBy: 'not an id' })],
      ['blockedBy', () => c.call('remove_dependency', { taskId: 'API-1', blockedBy: 'not an id' })],
      ['taskId', () => c.call('add_dependency', { taskId: 'not an id', blockedBy: 'API-1' })],
      ['blockedBy', () => c.call('create_task', { project: 'API', title: 'y', blockedBy: ['not an id'] })],
      ['parentId', () => c.call('create_task', { project: 'API', title: 'y', parentId: 'not an id' })],
      ['parentId', () => c.call('update_task', { id: 'API-1', parentId: 'not an id' })],
      ['id', () => c.call('get_task', { id: 'not an id' })],
    ];
    for (const [field, run] of cases) {
      const e = await expectCode(run(), 'INVALID_ID');
      expect(e.message, field).toMatch(new RegExp(`^${field}: `));
      expect(e.details, field).toMatchObject({ field });
    }
  });
});
