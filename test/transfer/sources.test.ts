/** Castle, Beads and DevPlanner imports from the fixtures of test/fixtures/import/ (see its README): each mapping, and that a second import changes nothing. */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/store/sqlite/native.js';
import { openForeignSqlite } from '../../src/foreign-sqlite.js';
import { exportText, freshWorkspaces, importInto } from './helpers.js';

const FIX = resolve(__dirname, '..', 'fixtures', 'import');
const fresh = freshWorkspaces();

/** castle.db built from the fixture's SQL, in the workspace's temporary folder. */
function castleDb(dir: string): string {
  const file = join(dir, 'castle.db');
  const db = new Database(file);
  db.exec(readFileSync(join(FIX, 'castle', 'make-castle-db.sql'), 'utf8'));
  db.close();
  return file;
}

describe('import from Castle', () => {
  it('maps states, kinds, labels, branch/worktree/PR/issue links, research and close reasons into castle projects per project path', async () => {
    const c = fresh();
    const file = castleDb(c.ws.dir);
    const report = await importInto(c, { path: file, openSqlite: openForeignSqlite });
    expect(report.source).toBe('castle');
    expect(report.projects.created).toEqual(['CASTLE', 'OTHERAPP']);
    expect(report.tasks).toEqual({ created: 5, updated: 0, unchanged: 0 });
    const p = (await c.call('get_project', { key: 'CASTLE' })).project;
    expect(p.root).toBe('/home/dev/castle');
    expect(p.statuses.map((s) => s.name)).toEqual(['new', 'in_progress', 'active', 'blocked', 'review', 'done']);
    const t = (await c.call('get_task', { id: 'CASTLE-1' })).task;
    expect(t).toMatchObject({
      title: 'Add dark mode support',
      status: 'in_progress',
      kind: 'feature',
      labels: ['UI', 'theme'],
      assignee: 'agent:agent-impl-7',
      links: { branch: 'feat/dark-mode', worktree: '/home/dev/castle-wt/dark-mode', prUrl: 'https://github.com/acme/castle/pull/51', prNumber: 51, prState: 'open', issue: 'acme/castle#42' },
      createdAt: '2026-02-10T09:00:00.000Z',
      updatedAt: '2026-02-15T17:30:00.000Z',
      origin: 'castle:5b0f7a52-1c1e-4b7e-9d57-0c6f1e0b1a01',
    });
    expect(t.comments.map((x) => [x.kind, x.author, x.body])).toEqual([
      ['research', 'alice', 'Research review (approved): Plan is sound; check contrast ratios.'],
      ['research', 'agent-research-1', 'Tailwind dark: variant covers most views.'],
    ]);
    expect((await c.call('get_task', { id: 'CASTLE-2' })).task).toMatchObject({ status: 'done', closeReason: 'fixed', links: { prState: 'merged' } });
    expect((await c.call('get_task', { id: 'OTHERAPP-2' })).task).toMatchObject({ closeReason: 'no_repro', kind: 'bug' });
    const before = await exportText(c);
    expect((await importInto(c, { path: file, openSqlite: openForeignSqlite })).tasks).toEqual({ created: 0, updated: 0, unchanged: 5 });
    expect(await exportText(c)).toBe(before);
    // A change in Castle updates only that task.
    const db = new Database(file);
    db.prepare("UPDATE tasks SET state = 'done', close_reason = 'wont_fix' WHERE id = '5b0f7a52-1c1e-4b7e-9d57-0c6f1e0b1a03'").run();
    db.close();
    expect((await importInto(c, { path: file, openSqlite: openForeignSqlite, dryRun: true })).tasks).toEqual({ created: 0, updated: 1, unchanged: 4 });
    expect((await importInto(c, { path: file, openSqlite: openForeignSqlite })).tasks).toEqual({ created: 0, updated: 1, unchanged: 4 });
    expect((await c.call('get_task', { id: 'CASTLE-3' })).task).toMatchObject({ status: 'done', closeReason: 'wont_fix', version: 2 });
  });
});

describe('import from Beads', () => {
  it('maps typed dependencies, priorities 0–4, kinds, labels and comments', async () => {
    const c = fresh();
    const dir = join(c.ws.dir, 'repo');
    mkdirSync(join(dir, '.beads'), { recursive: true });
    copyFileSync(join(FIX, 'beads', '.beads', 'issues.jsonl'), join(dir, '.beads', 'issues.jsonl'));
    const report = await importInto(c, { path: dir });
    expect(report.source).toBe('beads');
    expect(report.projects.created).toEqual(['BD']);
    const get = async (n: number) => (await c.call('get_task', { id: `BD-${n}` })).task;
    expect(await get(1)).toMatchObject({ kind: 'epic', priority: 'high', children: ['BD-2', 'BD-3'] });
    expect(await get(2)).toMatchObject({
      status: 'done',
      priority: 'urgent',
      assignee: 'alice',
      closeReason: 'Done in #12',
      completedAt: '2025-10-03T09:00:00.000Z',
      labels: ['db', 'storage'],
      parentId: 'BD-1',
    });
    expect((await get(2)).description).toContain('## Acceptance criteria\n\nMigrations run twice safely');
    expect((await get(2)).comments.map((x) => [x.author, x.body])).toEqual([['bob', 'Use STRICT tables?']]);
    expect(await get(3)).toMatchObject({ status: 'in_progress', kind: 'feature', blockedBy: ['BD-2'], links: { issue: 'gh-9' } });
    expect((await get(4)).description).toContain('- discovered-from: bd-3\n- related: bd-2');
    expect(await get(4)).toMatchObject({ priority: 'low', blockedBy: [] });
    expect(await get(5)).toMatchObject({ priority: 'none', kind: 'chore', blockedBy: ['BD-3', 'BD-4'], isReady: false });
    expect((await importInto(c, { path: dir })).tasks).toEqual({ created: 0, updated: 0, unchanged: 5 });
  });

  it('two issues that block each other: the edge that closes the cycle is left out with a warning, and the graph stays acyclic', async () => {
    const c = fresh();
    const file = join(c.ws.dir, 'issues.jsonl');
    const issue = (id: string, blocks: string[]) =>
      JSON.stringify({
        id,
        title: `Issue ${id}`,
        status: 'open',
        priority: 2,
        issue_type: 'task',
        created_at: '2025-10-01T10:00:00Z',
        updated_at: '2025-10-01T10:00:00Z',
        dependencies: blocks.map((on) => ({ issue_id: id, depends_on_id: on, type: 'blocks', created_at: '2025-10-01T10:00:00Z' })),
      });
    writeFileSync(file, [issue('bd-1', ['bd-2']), issue('bd-2', ['bd-1']), issue('bd-3', ['bd-1'])].join('\n'));
    const report = await importInto(c, { path: file });
    expect(report.warnings).toEqual([`${file}:2: BD-1 blocking BD-2 left out: it would close the cycle BD-2 → BD-1 → BD-2`]);
    const get = async (n: number) => (await c.call('get_task', { id: `BD-${n}` })).task;
    expect((await get(1)).blockedBy).toEqual(['BD-2']);
    expect((await get(2)).blockedBy).toEqual([]);
    expect((await get(3)).blockedBy).toEqual(['BD-1']);
    expect((await c.call('next_tasks', { project: 'BD' } as never)).tasks.map((t: { id: string }) => t.id)).toEqual(['BD-2']);
  });

  it('names the line and field of a bad issue, and imports nothing', async () => {
    const c = fresh();
    const file = join(c.ws.dir, 'issues.jsonl');
    const lines = readFileSync(join(FIX, 'beads', '.beads', 'issues.jsonl'), 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"priority":2', '"priority":7');
    writeFileSync(file, lines.join('\n'));
    await expect(importInto(c, { path: file })).rejects.toMatchObject({ details: { file, line: 3, field: 'priority' } });
    expect((await c.call('list_projects', {})).projects).toEqual([]);
  });
});

describe('import from DevPlanner', () => {
  it('makes a devplanner project whose cards, tasks and lane order the profile shows as before', async () => {
    const c = fresh();
    const ws = join(c.ws.dir, 'workspace');
    cpSync(join(FIX, 'devplanner'), ws, { recursive: true });
    const report = await importInto(c, { path: ws });
    expect(report.source).toBe('devplanner');
    expect(report.projects.created).toEqual(['MM']);
    const p = (await c.call('get_project', { key: 'media-manager' })).project;
    expect(p).toMatchObject({ key: 'MM', name: 'Media Manager', aliases: ['media-manager'] });
    const lane = async (status: string) => (await c.call('list_tasks', { project: 'MM', status, sort: 'position', includeDone: true })).tasks.map((t) => t.slug);
    expect(await lane('01-upcoming')).toEqual(['oauth2-integration', 'thumbnail-cache']);
    const card = (await c.call('list_tasks', { project: 'MM', slug: 'user-authentication' })).tasks[0]!;
    const full = (await c.call('get_task', { id: card.id })).task;
    expect(full).toMatchObject({
      title: 'User Authentication',
      status: '02-in-progress',
      substatus: 'in-progress',
      priority: 'high',
      assignee: 'agent',
      labels: ['auth', 'security'],
      createdAt: '2024-02-01T10:00:00.000Z',
    });
    expect(full.description).toBe('## Overview\n\nImplement JWT-based authentication.');
    expect(full.checklist.map((i) => [i.text, i.checked])).toEqual([
      ['Set up JWT library', true],
      ['Create auth middleware', true],
      ['Add login endpoint', false],
    ]);
    expect((await importInto(c, { path: ws })).tasks).toEqual({ created: 0, updated: 0, unchanged: 4 });
  });
});
