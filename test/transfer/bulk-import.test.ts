/**
 * Imports larger than one write batch (the importer writes new tasks many rows per statement and
 * indexes them for search at the end): relations across batches, a task the input names twice (refused),
 * a slugged task written on its own, and lane positions for sources that give none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportText, freshWorkspaces, importInto } from './helpers.js';

const fresh = freshWorkspaces();

const N = 600;

/** N tasks: labels, checklists, comments, blockers near and far, parents before and after their children, a slug, done, archived and deleted ones. */
async function bigWorkspace(c: ReturnType<typeof fresh>): Promise<string[]> {
  await c.call('create_project', { key: 'BIG', name: 'Big' });
  const ids: string[] = [];
  for (let i = 0; i < N; i++) {
    const blockedBy = i % 4 === 3 ? [ids[i - 1]!] : i === 300 ? [ids[10]!, ids[299]!] : [];
    const parentId = i === 400 ? ids[3] : undefined;
    const { task } = await c.call('create_task', {
      project: 'BIG',
      title: `Task ${i} ${['alpha', 'beta', 'gamma'][i % 3]}`,
      description: `Body of ${i}`,
      labels: i % 3 === 0 ? ['x', `l${i % 5}`] : [],
      checklist: i % 5 === 0 ? ['one', 'two'] : [],
      blockedBy,
      ...(parentId ? { parentId } : {}),
      ...(i === 270 ? { slug: 'the-slug' } : {}),
    });
    ids.push(task.id);
    if (i % 9 === 0) await c.call('add_comment', { id: task.id, body: `Note on ${i} delta` });
  }
  // A parent that comes after its child in the file, linked once every task exists.
  await c.call('update_task', { id: ids[5]!, parentId: ids[590]! });
  for (const i of [1, 2, 17, 290]) await c.call('complete_task', { id: ids[i]! });
  await c.call('archive_task', { id: ids[17]! });
  await c.call('delete_task', { id: ids[33]! });
  return ids;
}

const everyTask = async (c: ReturnType<typeof fresh>, ids: string[]) => Promise.all(ids.map(async (id) => (await c.call('get_task', { id })).task));
const searchIds = async (c: ReturnType<typeof fresh>, query: string, includeArchived = false) =>
  (await c.call('search_tasks', { query, limit: 50, includeDone: true, includeArchived })).results.map((r) => r.task.id).sort();

describe('imports larger than one write batch', () => {
  it('export → import → export is byte-identical, and every task reads back with the same relations, search rows and readiness', async () => {
    const a = fresh();
    const ids = await bigWorkspace(a);
    const text = await exportText(a);
    const file = join(a.ws.dir, 'big.jsonl');
    writeFileSync(file, text);
    const b = fresh();
    expect((await importInto(b, { path: file })).tasks).toEqual({ created: N, updated: 0, unchanged: 0 });
    expect(await exportText(b)).toBe(text);
    expect(await everyTask(b, ids)).toEqual(await everyTask(a, ids));
    const t300 = (await b.call('get_task', { id: ids[300]! })).task;
    expect(t300.blockedBy).toEqual([ids[10], ids[299]]);
    expect((await b.call('get_task', { id: ids[590]! })).task.children).toEqual([ids[5]]);
    for (const q of ['delta', 'gamma', 'two', 'l4', 'Task 17']) expect(await searchIds(b, q, true)).toEqual(await searchIds(a, q, true));
    // The archived Task 17 is out of a default search; "Task 17" still finds Task 170–179 as a substring.
    expect(await searchIds(b, 'Task 17')).not.toContain(ids[17]);
    expect(await searchIds(b, 'Task 17')).toEqual(await searchIds(a, 'Task 17'));
    const ready = async (c: ReturnType<typeof fresh>) => (await c.call('next_tasks', { project: 'BIG', limit: 50 })).tasks.map((t) => t.id);
    expect(await ready(b)).toEqual(await ready(a));
    expect((await importInto(b, { path: file })).tasks).toEqual({ created: 0, updated: 0, unchanged: N });
    expect(await exportText(b)).toBe(text);
  });

  it('a task the input names twice is refused with both lines named, even when the first is still in the write batch', async () => {
    const a = fresh();
    const ids = await bigWorkspace(a);
    const lines = (await exportText(a)).trimEnd().split('\n');
    // Near the end of the input, so still in the importer's batch when named again.
    const at = lines.findIndex((l) => l.includes(`"id":"${ids[598]}"`));
    const again = JSON.parse(lines[at]!) as { title: string; version: number };
    lines.push(JSON.stringify({ ...again, title: 'Renamed zeta', version: again.version + 1 }));
    const file = join(a.ws.dir, 'twice.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const b = fresh();
    await expect(importInto(b, { path: file })).rejects.toThrow(
      `twice.jsonl:${lines.length}: field "id": "${JSON.parse(lines[at]!).uid}" is also the id of the task at ${file}:${at + 1}; each task may appear once. Nothing was imported.`,
    );
    expect((await b.call('list_projects', {})).projects).toEqual([]);
  });
});

describe('sources without positions, in large numbers', () => {
  it('append each new task after the last of its lane: no repeats, after tasks made in between', async () => {
    const c = fresh();
    const dir = join(c.ws.dir, 'repo');
    mkdirSync(join(dir, '.beads'), { recursive: true });
    const issues = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => {
        const n = from + k;
        return JSON.stringify({
          id: `bd-${n}`,
          title: `Issue ${n}`,
          status: n % 2 ? 'open' : 'in_progress',
          priority: 2,
          issue_type: 'task',
          created_at: '2025-10-01T10:00:00Z',
          updated_at: '2025-10-01T10:00:00Z',
        });
      }).join('\n') + '\n';
    const file = join(dir, '.beads', 'issues.jsonl');
    writeFileSync(file, issues(1, 401));
    expect((await importInto(c, { path: dir })).tasks.created).toBe(400);
    await c.call('create_task', { project: 'BD', title: 'Made by hand', status: 'todo' });
    writeFileSync(file, issues(1, 801));
    expect((await importInto(c, { path: dir })).tasks).toEqual({ created: 400, updated: 0, unchanged: 400 });
    for (const status of ['todo', 'in_progress']) {
      const lane = [];
      for (let cursor: string | undefined; ; ) {
        const page = await c.call('list_tasks', { project: 'BD', status, sort: 'position', limit: 200, ...(cursor ? { cursor } : {}) });
        lane.push(...page.tasks);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(lane).toHaveLength(status === 'todo' ? 401 : 400);
      const positions = lane.map((t) => t.position);
      expect(new Set(positions).size).toBe(positions.length);
      // File order within the lane, the hand-made task between the two imports.
      const titles = lane.map((t) => t.title);
      if (status === 'todo') expect(titles.indexOf('Made by hand')).toBe(200);
      expect(titles.filter((t) => t !== 'Made by hand')).toEqual(titles.filter((t) => t !== 'Made by hand').sort((x, y) => Number(x.split(' ')[1]) - Number(y.split(' ')[1])));
    }
  });
});
