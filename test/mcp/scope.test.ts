/**
 * The MCP server's default project from its working directory (ProjectScope, src/mcp/scope.ts) on a
 * real workspace file: it follows every change to projects — by this process or another — and task
 * writes, which cannot move it, leave the remembered answer (and the store's projectsToken) alone.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { openCairn, type Cairn } from '../../src/index.js';
import { ProjectScope } from '../../src/mcp/scope.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let other: Cairn;

beforeEach(() => {
  c = tempCairn({ actor: 'alice' });
  other = openCairn({ db: c.ws.db, actor: 'bob' }); // another process's connection
});
afterEach(async () => {
  await other.close();
  await c.done();
});

describe('default project from the working directory', () => {
  it('follows projects created and re-rooted here and elsewhere', async () => {
    const repo = join(c.ws.dir, 'api');
    const scope = new ProjectScope({ store: c.store, clock: systemClock, actor: 'alice' }, { cwd: join(repo, 'src') });
    expect(await scope.current()).toBeUndefined();

    await c.call('create_project', { key: 'API', name: 'API', root: repo });
    expect(await scope.current()).toBe('API');

    await c.call('update_project', { key: 'API', root: join(c.ws.dir, 'elsewhere') });
    expect(await scope.current()).toBeUndefined();

    // Another connection: this one learns of it through data_version.
    await other.call('create_project', { key: 'WEB', name: 'Web', root: repo });
    expect(await scope.current()).toBe('WEB');
    await other.call('update_project', { key: 'API', root: join(repo, 'src') });
    expect(await scope.current()).toBe('API'); // the deepest root wins
  });

  it('task writes keep the remembered answer', async () => {
    const repo = join(c.ws.dir, 'api');
    await c.call('create_project', { key: 'API', name: 'API', root: repo });
    const scope = new ProjectScope({ store: c.store, clock: systemClock, actor: 'alice' }, { cwd: repo });
    expect(await scope.current()).toBe('API');
    const token = await c.store.projectsToken();
    const changes = await c.store.changeToken();
    const { task } = await c.call('create_task', { project: 'API', title: 'one' });
    await c.call('update_task', { id: task.id, priority: 'high' });
    await c.call('claim_task', { id: task.id });
    expect(await c.store.changeToken()).not.toBe(changes);
    expect(await c.store.projectsToken()).toBe(token);
    expect(await scope.current()).toBe('API');
  });
});
