/**
 * `cairn db copy` moves a workspace between engines without loss: every read op answers the same
 * before and after. On the sqlite leg the copy goes file → file; on the postgres leg PostgreSQL →
 * SQLite file → a new PostgreSQL schema, so both directions between the engines are covered.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { createToken, listTokens } from '../../src/core/services/tokens.js';
import { systemClock } from '../../src/core/ports.js';
import { copyWorkspace } from '../../src/workspace.js';
import { allEvents, allTasks } from '../helpers/core.js';
import { onPostgres, pgWorkspaceUrl } from '../helpers/engine.js';
import { tempCairn, tempWorkspace } from '../helpers/workspace.js';

const BIN = resolve(import.meta.dirname, '../../bin/cairn.js');
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** A workspace with something of everything: workflows, labels, edges, hierarchy, checklists, comments, claims, archived, deleted, tokens. */
async function rich(c: Cairn): Promise<void> {
  await c.call('create_project', { key: 'API', name: 'API server', aliases: ['backend'], root: '/tmp/api' });
  await c.call('create_project', { key: 'WEB', name: 'Web', template: 'castle' } as never);
  await c.call('update_project', { key: 'API', statuses: [{ op: 'add', name: 'qa', category: 'in_progress' }] } as never);
  for (let i = 0; i < 12; i++) {
    await c.call('create_task', {
      project: i % 3 ? 'API' : 'WEB',
      title: `Task ${i} about café tokens`,
      description: `Description ${i} with **markdown** and the word refresh${i}`,
      labels: i % 2 ? ['bug', 'auth'] : ['docs'],
      priority: (['none', 'low', 'medium', 'high', 'urgent'] as const)[i % 5],
      checklist: i % 4 === 0 ? ['write', 'test'] : [],
    } as never);
  }
  await c.call('add_dependency', { taskId: 'API-2', blockedBy: 'API-1' });
  await c.call('add_dependency', { taskId: 'API-3', blockedBy: 'API-2' });
  await c.call('update_task', { id: 'API-4', parentId: 'API-1', slug: 'child-task', substatus: 'waiting' } as never);
  await c.call('update_checklist', { id: 'WEB-1', ops: [{ op: 'check', index: 0 }] } as never);
  await c.call('add_comment', { id: 'API-1', body: 'A research note', kind: 'research' } as never);
  await c.call('add_comment', { id: 'API-1', body: 'A plain comment' });
  await c.call('claim_task', { id: 'API-5' });
  await c.call('complete_task', { id: 'API-6', closeReason: 'shipped' } as never);
  await c.call('archive_task', { id: 'API-7' });
  await c.call('delete_task', { id: 'API-8' });
  await createToken({ store: c.store, clock: systemClock, actor: 'admin' }, { name: 'ci', scope: 'write' });
}

/**
 * Search hits by id: the engines rank with their own functions (bm25, ts_rank), so the order of
 * equally good hits may differ between them; which tasks match, where, and the excerpts may not.
 */
const hits = (r: { results: Array<{ task: { id: string }; matchedFields: string[]; excerpt: string }>; total?: number }) => ({
  total: r.total,
  hits: r.results.map((h) => ({ id: h.task.id, task: h.task, matchedFields: h.matchedFields, excerpt: h.excerpt })).sort((a, b) => a.id.localeCompare(b.id)),
});

/** What users can read, through every read op. */
async function answers(c: Cairn) {
  const tasks = await allTasks(c);
  return {
    projects: await c.call('list_projects', { includeArchived: true }),
    project: await c.call('get_project', { key: 'API' }),
    tasks,
    deleted: await allTasks(c, { deleted: true }),
    full: await Promise.all(tasks.map((t) => c.call('get_task', { id: t.id }))),
    history: await Promise.all(tasks.map((t) => c.call('task_history', { id: t.id }))),
    labelled: await c.call('list_tasks', { labels: ['auth'], sort: 'priority' } as never),
    byUpdate: await c.call('list_tasks', { sort: 'updated', limit: 5 } as never),
    next: await c.call('next_tasks', { limit: 5 } as never),
    search: hits(await c.call('search_tasks', { query: 'cafe' })),
    searchPrefix: hits(await c.call('search_tasks', { query: 'refresh1*', includeDone: true } as never)),
    board: await c.call('board_overview', {}),
    progress: await c.call('get_progress', { project: 'API' } as never),
    labels: await c.call('list_labels', {}),
    events: await allEvents(c),
    tokens: (await listTokens({ store: c.store, clock: systemClock, actor: 'admin' }, { includeRevoked: true })).map((t) => ({ ...t, lastUsedAt: null })),
  };
}

function target(): string {
  const ws = tempWorkspace('cairn-copy-');
  cleanups.push(() => ws.cleanup());
  return join(ws.dir, '.cairn', 'cairn.db');
}

function opened(db: string): Cairn {
  const c = openCairn({ db, actor: 'tester' });
  cleanups.push(() => c.close());
  return c;
}

describe('db copy', () => {
  it('every read op answers the same after a copy to the other engine and back', async () => {
    const source = tempCairn();
    cleanups.push(() => source.done());
    await rich(source);
    const before = await answers(source);

    const file = target();
    const there = await copyWorkspace(source.ws.db, file);
    expect(there.rows).toMatchObject({ projects: 2, tasks: 12, api_tokens: 1, comments: 2 });
    const copy = opened(file);
    expect(await answers(copy)).toEqual(before);

    const back = onPostgres ? pgWorkspaceUrl() : target();
    await copyWorkspace(file, back);
    const returned = opened(back);
    expect(await answers(returned)).toEqual(before);

    // The copy is a workspace like any other: new tasks continue the numbering, new events the log.
    const made = await returned.call('create_task', { project: 'API', title: 'after the copy' });
    expect(made.task.id).toBe('API-9');
    expect((await allEvents(returned)).at(-1)!.seq).toBe(before.events.at(-1)!.seq + 1);
    expect((await returned.call('search_tasks', { query: 'after copy' })).results.map((r) => r.task.id)).toEqual(['API-9']);
  });

  it('copies a live workspace: writers keep going, and the copy is one moment of it', async () => {
    const source = tempCairn();
    cleanups.push(() => source.done());
    await source.call('create_project', { key: 'API', name: 'API' });
    let last = (await source.call('create_task', { project: 'API', title: 'seed 0' })).task.id;
    for (let i = 1; i < 700; i++) last = (await source.call('create_task', { project: 'API', title: `seed ${i}`, blockedBy: i % 3 ? [] : [last] } as never)).task.id;

    // Writers add tasks that depend on the newest one, comment and complete, for as long as the copy runs.
    let copying = true;
    let wrote = 0;
    const busy = ['one', 'two', 'three'].map(async (name) => {
      const writer = openCairn({ db: source.ws.db, actor: `agent:${name}` });
      cleanups.push(() => writer.close());
      for (let n = 0; copying; n++) {
        const t = (await writer.call('create_task', { project: 'API', title: `live ${name} ${n}`, blockedBy: [last] } as never)).task.id;
        await writer.call('add_comment', { id: t, body: `note ${n}` });
        await writer.call('complete_task', { id: last }).catch(() => undefined);
        last = t;
        wrote++;
      }
    });
    const file = target();
    const report = await copyWorkspace(source.ws.db, file).finally(() => (copying = false));
    await Promise.all(busy);
    expect(wrote).toBeGreaterThan(0);

    // One moment: every task, edge and comment the copy holds has its event in the copy's feed, and none is missing.
    const copy = opened(file);
    const events = await allEvents(copy);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const created = new Set(events.filter((e) => e.type === 'task.created').map((e) => e.taskId));
    const tasks = await allTasks(copy);
    expect(tasks.length).toBe(report.rows.tasks);
    expect(new Set(tasks.map((t) => t.id))).toEqual(created);
    expect(report.rows.comments).toBe(events.filter((e) => e.type === 'comment.added').length);
  }, 120_000);

  it('refuses a target that already holds a workspace, and changes neither', async () => {
    const source = tempCairn();
    cleanups.push(() => source.done());
    await source.call('create_project', { key: 'API', name: 'API' });
    const other = tempCairn();
    cleanups.push(() => other.done());
    await other.call('create_project', { key: 'WEB', name: 'Web' });
    await expect(copyWorkspace(source.ws.db, other.ws.db)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await other.call('list_projects', {})).projects.map((p) => p.key)).toEqual(['WEB']);
  });

  it('cairn db copy from the command line, with the password masked in what it prints', async () => {
    const source = tempCairn();
    cleanups.push(() => source.done());
    await source.call('create_project', { key: 'API', name: 'API' });
    await source.call('create_task', { project: 'API', title: 'one' });
    const to = onPostgres ? pgWorkspaceUrl() : target();
    const r = spawnSync(process.execPath, [BIN, '--db', source.ws.db, 'db', 'copy', '--to', to], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Copied .* 1 projects, 1 tasks/);
    expect(r.stdout + r.stderr).not.toContain(':cairn@');
    expect((await opened(to).call('get_task', { id: 'API-1' })).task.title).toBe('one');
  });
});
