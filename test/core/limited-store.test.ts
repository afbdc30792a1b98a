/**
 * The project-limited store view (core/limited-store.ts) below the operations: even a write that
 * names another project's rows by uid directly, without going through a service's lookup, is refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { limitToProjects } from '../../src/core/limited-store.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let web: Cairn;
let uid: { web: string; oth: string; webTask: string; othTask: string };
beforeEach(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'WEB', name: 'Web' });
  await c.call('create_project', { key: 'OTH', name: 'Other' });
  const w = (await c.call('create_task', { project: 'WEB', title: 'web one' })).task;
  const o = (await c.call('create_task', { project: 'OTH', title: 'other one', labels: ['secret'] })).task;
  const projects = await c.store.read((tx) => tx.listProjects(true));
  uid = { web: projects.find((p) => p.key === 'WEB')!.uid, oth: projects.find((p) => p.key === 'OTH')!.uid, webTask: w.uid, othTask: o.uid };
  web = openCairn({ store: limitToProjects(c.store, [uid.web]), actor: 'web-agent' });
});
afterEach(async () => {
  await web.close();
  await c.done();
});

describe('a store limited to projects', () => {
  it('reads nothing of another project, even by uid', async () => {
    await web.store.read(async (tx) => {
      expect(await tx.getTask(uid.othTask)).toBeUndefined();
      expect(await tx.getTasks([uid.othTask, uid.webTask])).toHaveLength(1);
      expect(await tx.getProjectByUid(uid.oth)).toBeUndefined();
      expect(await tx.getProjectByKey('OTH')).toBeUndefined();
      expect(await tx.taskDetails([uid.othTask], true)).toEqual([]);
      expect((await tx.labelCounts(null)).map((l) => l.label)).not.toContain('secret');
      expect((await tx.events({ limit: 100 })).every((e) => e.project === 'WEB')).toBe(true);
      expect(await tx.events({ limit: 100, taskUid: uid.othTask })).toEqual([]);
    });
  });

  it("refuses writes to another project's rows named by uid, and changes nothing", async () => {
    const before = await c.call('get_task', { id: 'OTH-1' });
    const attempts: Array<[string, (tx: Parameters<Parameters<Cairn['store']['write']>[0]>[0]) => Promise<unknown>]> = [
      ['updateTask', (tx) => tx.updateTask(uid.othTask, { title: 'taken' })],
      ['purgeTask', (tx) => tx.purgeTask(uid.othTask)],
      ['setLabels', (tx) => tx.setLabels(uid.othTask, ['x'])],
      ['addComment', (tx) => tx.addComment(uid.othTask, { id: 'c1', author: 'x', kind: 'comment', body: 'hi', createdAt: new Date().toISOString() })],
      ['addDependency', (tx) => tx.addDependency(uid.webTask, uid.othTask, new Date().toISOString())],
      ['allocateSeq', (tx) => tx.allocateSeq(uid.oth)],
      ['updateProject', (tx) => tx.updateProject(uid.oth, { name: 'renamed' })],
      ['insertProject', (tx) => tx.insertProject({ uid: 'x', key: 'NEW', name: 'n', description: '', root: null, aliases: [], archivedAt: null, createdAt: '', updatedAt: '' }, [])],
      ['transfer', async (tx) => tx.transfer.dumpTasks({} as never)],
      ['links.list', (tx) => tx.links.list()],
      ['listTokens', (tx) => tx.listTokens(false)],
    ];
    for (const [name, attempt] of attempts) {
      await expect(web.store.write(attempt), name).rejects.toMatchObject({ code: expect.stringMatching(/^(TASK_NOT_FOUND|PROJECT_NOT_FOUND|FORBIDDEN)$/) });
    }
    expect(await c.call('get_task', { id: 'OTH-1' })).toEqual(before);
    expect((await c.call('get_project', { key: 'OTH' })).project.name).toBe('Other');
  });

  it('works in its own project as usual; another project is not found and a new one is refused', async () => {
    const t = (await web.call('create_task', { project: 'WEB', title: 'web two' })).task;
    expect(t.id).toBe('WEB-2');
    expect((await web.call('list_projects', {})).projects.map((p: { key: string }) => p.key)).toEqual(['WEB']);
    await expect(web.call('create_task', { project: 'OTH', title: 'planted' })).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    await expect(web.call('create_project', { key: 'NEW', name: 'New' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('history names no task of another project, and a cycle through one is refused without naming it', async () => {
    await c.call('add_dependency', { taskId: 'WEB-1', blockedBy: 'OTH-1' });
    await c.call('update_task', { id: 'WEB-1', parentId: 'OTH-1' });
    const history = JSON.stringify((await web.call('task_history', { id: 'WEB-1' })).events);
    expect(history).not.toContain('OTH-');
    expect(history).not.toContain(uid.othTask);
    expect(history).not.toContain('parentUid');
    const changes = JSON.stringify((await web.call('changes_since', { since: 0 })).events);
    expect(changes).not.toContain('OTH-');
    expect(changes).not.toContain(uid.othTask);
    // WEB-2 → OTH-2 → WEB-3: closing the loop from WEB-3 is a cycle, named without OTH-2.
    await c.call('create_task', { project: 'WEB', title: 'two' });
    await c.call('create_task', { project: 'WEB', title: 'three' });
    await c.call('create_task', { project: 'OTH', title: 'other two' });
    await c.call('add_dependency', { taskId: 'WEB-2', blockedBy: 'OTH-2' });
    await c.call('add_dependency', { taskId: 'OTH-2', blockedBy: 'WEB-3' });
    const err = await web.call('add_dependency', { taskId: 'WEB-3', blockedBy: 'WEB-2' }).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string; details: unknown },
    );
    expect(err?.code).toBe('CYCLE_DETECTED');
    expect(`${err!.message}${JSON.stringify(err!.details)}`).not.toMatch(/OTH-2|[0-9A-HJKMNP-TV-Z]{26}/);
    expect(err!.message).toContain('a task in another project');
  });

  it('refuses a parent loop that passes through another project', async () => {
    await c.call('create_task', { project: 'WEB', title: 'two' });
    // OTH-1's parent is WEB-2, WEB-1's parent is OTH-1: making WEB-2 a child of WEB-1 would loop.
    await c.call('update_task', { id: 'OTH-1', parentId: 'WEB-2' });
    await c.call('update_task', { id: 'WEB-1', parentId: 'OTH-1' });
    await expect(web.call('update_task', { id: 'WEB-2', parentId: 'WEB-1' })).rejects.toMatchObject({ code: 'CYCLE_DETECTED' });
    expect((await c.call('get_task', { id: 'WEB-2' })).task.parentId).toBeNull();
  });

  it('leaves aliases and roots to the workspace: a limited caller cannot take a name another project holds', async () => {
    await c.call('update_project', { key: 'OTH', aliases: ['acme-secret'] });
    await expect(web.call('update_project', { key: 'WEB', aliases: ['acme-secret'] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(web.call('update_project', { key: 'WEB', root: '/somewhere/else' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await web.call('update_project', { key: 'WEB', name: 'Web, renamed' })).project.name).toBe('Web, renamed');
    expect((await c.call('get_project', { key: 'WEB' })).project.aliases).toEqual([]);
  });
});
