/**
 * Seeds 000 and 001 (Castle) on Cairn, through a real MCP client over stdio (`--profile castle`):
 * the four read tools in Castle's markdown, scoping by CASTLE_PROJECT_PATH, seed 000's edge-case
 * table, read-only hints, the write tools behind --toolsets write, and the tools/list snapshot.
 */
import { onPostgres } from '../helpers/engine.js';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { openSqliteFile } from '../../src/store/sqlite/open.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { call, connectV1, connectV2, ok } from '../mcp/helpers.js';

let ws: TempWorkspace;
let repo: string;
let lib: Cairn;
let c: Client;
const RESEARCH = 'r'.repeat(2500);

beforeAll(async () => {
  ws = tempWorkspace('cairn-castle-');
  repo = join(ws.dir, 'castle-app');
  mkdirSync(repo);
  lib = openCairn({ db: ws.db, actor: 'castle' });
  await lib.call('create_project', { key: 'APP', name: 'Castle app', root: repo, template: 'castle' });
  await lib.call('create_project', { key: 'OTHER', name: 'Elsewhere', root: join(ws.dir, 'other'), template: 'castle' });
  await lib.call('create_task', { project: 'OTHER', title: 'Not this project', kind: 'chore' });
  const { task } = await lib.call('create_task', {
    project: 'APP',
    title: 'Add dark mode support',
    kind: 'feature',
    labels: ['UI', 'theme'],
    description: 'Dark theme for every view.',
    links: { branch: 'feat/dark', worktree: '/wt/dark', prUrl: 'https://github.com/o/castle/pull/7', prNumber: 7, prState: 'open', issue: 'o/castle#42' },
  });
  await lib.call('update_task', { id: task.id, status: 'in_progress' });
  await lib.call('add_comment', { id: task.id, body: RESEARCH, kind: 'research' });
  const bug = (await lib.call('create_task', { project: 'APP', title: 'Crash on startup', kind: 'bug' })).task;
  await lib.call('update_task', { id: bug.id, status: 'done', closeReason: 'no_repro' });
  await lib.call('create_task', { project: 'APP', title: 'Spike: sync engine', kind: 'spike' });
  c = await connectV1({ env: { CASTLE_DB_PATH: ws.db, CASTLE_PROJECT_PATH: repo }, args: ['--profile', 'castle'] });
});
afterAll(async () => {
  await c?.close();
  await lib?.close();
  ws?.cleanup();
});

describe('castle profile: surface', () => {
  it('serves the four read tools, read-only, matching the committed snapshot', async () => {
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['castle_list_tasks', 'castle_get_task', 'castle_search_tasks', 'castle_task_summary']);
    for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true);
    expect(c.getServerVersion()?.name).toBe('castle-tasks');
    const v2 = await connectV2({ db: ws.db, args: ['--profile', 'castle', '--toolsets', 'write'] });
    try {
      const all = (await v2.listTools()).tools;
      expect(all.map((t) => t.name)).toEqual(['castle_list_tasks', 'castle_get_task', 'castle_search_tasks', 'castle_task_summary', 'castle_create_task', 'castle_update_task']);
      const surface = all.map((t) => ({ name: t.name, description: t.description, annotations: t.annotations, inputSchema: t.inputSchema }));
      await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/castle-tools.json');
    } finally {
      await v2.close();
    }
  });
});

describe('castle profile: read tools', () => {
  it('castle_list_tasks: the project of CASTLE_PROJECT_PATH in Castle markdown, open tasks unless include_done', async () => {
    const r = await ok(c, 'castle_list_tasks');
    expect(r.text).toBe(
      '## Castle Tasks (2)\n\n' +
        '- **Spike: sync engine** (new, spike)\n  ID: APP-3\n' +
        '- **Add dark mode support** (in_progress, feature) [UI, theme] | PR: https://github.com/o/castle/pull/7\n  ID: APP-1',
    );
    expect((await ok(c, 'castle_list_tasks', { include_done: true })).text).toContain('**Crash on startup** (done, bug)');
    expect((await ok(c, 'castle_list_tasks', { state: 'done' })).text).toContain('APP-2');
    expect((await ok(c, 'castle_list_tasks', { kind: 'spike' })).text).toContain('## Castle Tasks (1)');
    expect((await ok(c, 'castle_list_tasks', { allProjects: true })).text).toContain('Not this project');
    expect((await call(c, 'castle_list_tasks', { state: 'doing' })).isError).toBe(true);
  });

  it("castle_get_task by id and by title search: seed 000's formatTaskDetail line for line, research cut at 2,000 characters; Cairn's additions after", async () => {
    const r = await ok(c, 'castle_get_task', { taskId: 'APP-1' });
    const t = (await lib.call('get_task', { id: 'APP-1' })).task;
    // The seed's lines in its order (its filter(Boolean) drops the empty line before ### Description).
    const seed = [
      '## Add dark mode support',
      '**State:** in_progress | **Kind:** feature',
      '**Labels:** UI, theme',
      `**Created:** ${t.createdAt} | **Updated:** ${t.updatedAt}`,
      '### Description',
      'Dark theme for every view.',
      '\n**Branch:** feat/dark',
      '**Worktree:** /wt/dark',
      '**PR:** https://github.com/o/castle/pull/7 (open)',
      `\n### Research\n${'r'.repeat(2000)}`,
    ].join('\n');
    expect(r.text.startsWith(`${seed}\n`)).toBe(true);
    expect(r.text.slice(seed.length)).toBe('\n\n**ID:** APP-1\n**PR number:** #7\n**GitHub issue:** o/castle#42\nResearch cut at 2,000 of 2,500 characters');
    expect((r.data.task as { researchContent: string }).researchContent).toBe('r'.repeat(2000));
    expect((await ok(c, 'castle_get_task', { search: 'startup crash' })).text).toContain('**Close reason:** no_repro');
    const miss = await call(c, 'castle_get_task', { taskId: 'APP-99' });
    expect(miss.isError).toBe(true);
    expect(miss.text).toContain('castle_get_task');
    expect(miss.text).not.toMatch(/\bget_task\b/);
  });

  it('format "json" answers seed 001\'s JSON as the text; summaries carry the description', async () => {
    const list = JSON.parse((await ok(c, 'castle_list_tasks', { format: 'json' })).text) as Array<Record<string, unknown>>;
    expect(list.map((t) => t.title)).toEqual(['Spike: sync engine', 'Add dark mode support']);
    expect(list[1]).toMatchObject({ id: 'APP-1', state: 'in_progress', kind: 'feature', labels: ['UI', 'theme'], description: 'Dark theme for every view.' });
    expect(JSON.parse((await ok(c, 'castle_get_task', { taskId: 'APP-1', format: 'json' })).text)).toMatchObject({ id: 'APP-1', branchName: 'feat/dark', researchContent: 'r'.repeat(2000) });
    expect(JSON.parse((await ok(c, 'castle_task_summary', { format: 'json' })).text)).toEqual({ total: 3, byState: { new: 1, in_progress: 1, done: 1 }, byKind: { feature: 1, bug: 1, spike: 1 } });
    const none = await call(c, 'castle_get_task', {});
    expect(none.isError).toBe(true);
    expect(none.text).toContain('give taskId or search');
  });

  it('castle_search_tasks finds by keyword in the title or description, in this project only', async () => {
    expect((await ok(c, 'castle_search_tasks', { query: 'theme' })).text).toContain('APP-1');
    expect((await ok(c, 'castle_search_tasks', { query: 'project' })).text).toBe('No tasks found.');
  });

  it('castle_task_summary: total, by state, by kind, recent activity', async () => {
    const r = await ok(c, 'castle_task_summary');
    expect(r.data).toMatchObject({ total: 3, byState: { new: 1, in_progress: 1, done: 1 }, byKind: { feature: 1, bug: 1, spike: 1 } });
    expect(r.text).toContain('## Castle Task Summary (3)');
    expect(r.text).toContain('### Recent activity');
  });

  it('every call reads fresh data: a task another process adds shows on the next call', async () => {
    await lib.call('create_task', { project: 'APP', title: 'Written by the app meanwhile', kind: 'chore' });
    expect((await ok(c, 'castle_list_tasks')).text).toContain('Written by the app meanwhile');
  });
});

describe('castle profile: seed 000 edge cases', () => {
  it('no database yet: "No tasks found." and no file is created', async () => {
    const empty = tempWorkspace('cairn-castle-none-');
    const db = join(empty.dir, 'castle.db');
    const v1 = await connectV1({ env: { CASTLE_DB_PATH: db, CASTLE_PROJECT_PATH: empty.dir }, args: ['--profile', 'castle'] });
    try {
      expect((await ok(v1, 'castle_list_tasks')).text).toBe('No tasks found.');
      expect((await ok(v1, 'castle_task_summary')).text).toBe('No tasks found.');
      expect((await ok(v1, 'castle_search_tasks', { query: 'x' })).text).toBe('No tasks found.');
      expect(existsSync(db)).toBe(false);
    } finally {
      await v1.close();
      empty.cleanup();
    }
  });

  it("a project directory with no project rooted there has no tasks (never another project's)", async () => {
    const v1 = await connectV1({ env: { CASTLE_DB_PATH: ws.db, CASTLE_PROJECT_PATH: join(ws.dir, 'unknown-repo') }, args: ['--profile', 'castle'] });
    try {
      expect((await ok(v1, 'castle_list_tasks')).text).toBe('No tasks found.');
    } finally {
      await v1.close();
    }
  });

  // A SQLite file at schema version 1; the PostgreSQL schema has no such past.
  it.skipIf(onPostgres)('a workspace made by an older Cairn (schema version 1) still opens', async () => {
    const old = tempWorkspace('cairn-castle-old-');
    const db = openSqliteFile(old.db, { targetVersion: 1 });
    const T = '2025-06-01T00:00:00.000Z';
    db.prepare(`INSERT INTO projects (uid, key, name, description, root, aliases, next_seq, archived_at, created_at, updated_at)
      VALUES ('01JXPROJECT0000000000000AA', 'OLD', 'Old', '', ?, '[]', 2, NULL, ?, ?)`).run(old.dir, T, T);
    db.prepare("INSERT INTO statuses (project_uid, name, display_name, color, category, position) VALUES ('01JXPROJECT0000000000000AA', 'new', 'New', '#112233', 'todo', 0)").run();
    db.prepare(`INSERT INTO tasks (uid, project_uid, seq, title, description, status, category, kind, priority, score, position, open_blockers, checklist_done, checklist_total, version, created_at, updated_at)
      VALUES ('01JXTASK000000000000000001', '01JXPROJECT0000000000000AA', 1, 'Kept from long ago', '', 'new', 'todo', 'bug', 0, 0, 1, 0, 0, 0, 1, ?, ?)`).run(T, T);
    db.close();
    const v1 = await connectV1({ env: { CASTLE_DB_PATH: old.db, CASTLE_PROJECT_PATH: old.dir }, args: ['--profile', 'castle'] });
    try {
      expect((await ok(v1, 'castle_list_tasks')).text).toContain('**Kept from long ago** (new, bug)');
    } finally {
      await v1.close();
      old.cleanup();
    }
  });
});

describe('castle profile: write tools (--toolsets write)', () => {
  it('create and update a task with Castle fields; research content is stored once as research notes', async () => {
    const fresh = tempWorkspace('cairn-castle-write-');
    const v1 = await connectV1({ env: { CASTLE_DB_PATH: fresh.db, CASTLE_PROJECT_PATH: fresh.dir }, args: ['--profile', 'castle', '--toolsets', 'write'] });
    try {
      const created = await ok(v1, 'castle_create_task', { title: 'Auth refactor', kind: 'feature', labels: ['auth'], branchName: 'feat/auth' });
      const id = (created.data as { id: string }).id;
      await ok(v1, 'castle_update_task', {
        taskId: id,
        state: 'review',
        prUrl: 'https://x/pr/3',
        prNumber: 3,
        prState: 'draft',
        researchContent: 'Tokens live in keychain.',
        githubRepo: 'o/r',
        githubIssueNumber: 9,
      });
      const text = (await ok(v1, 'castle_get_task', { taskId: id })).text;
      expect(text).toContain('**State:** review | **Kind:** feature');
      expect(text).toContain('**Branch:** feat/auth');
      expect(text).toContain('**PR:** https://x/pr/3 (draft)');
      expect(text).toContain('**PR number:** #3');
      expect(text).toContain('**GitHub issue:** o/r#9');
      expect(text).toContain('### Research\nTokens live in keychain.');
      // The project was made for this directory, from the castle template.
      const check = openCairn({ db: fresh.db });
      try {
        const { projects } = await check.call('list_projects', {});
        expect(projects).toHaveLength(1);
        expect(projects[0]!.statuses.map((s) => s.name)).toEqual(['new', 'in_progress', 'active', 'blocked', 'review', 'done']);
        expect((await check.call('get_task', { id })).task.comments.filter((cm) => cm.kind === 'research')).toHaveLength(1);
      } finally {
        await check.close();
      }
      expect((await call(v1, 'castle_update_task', { taskId: id, closeReason: 'maybe' })).isError).toBe(true);
    } finally {
      await v1.close();
      fresh.cleanup();
    }
  });

  it('without --toolsets write, the write tools are not listed and a call says which toolset serves them; --read-only refuses them too', async () => {
    const before = (await ok(c, 'castle_list_tasks', {})).text;
    const refused = await call(c, 'castle_create_task', { title: 'x' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('castle_create_task is in the write toolset, which this server does not serve');
    expect(refused.text).toContain('--toolsets write');
    expect((await ok(c, 'castle_list_tasks', {})).text).toBe(before);
    const ro = await connectV1({ db: ws.db, args: ['--profile', 'castle', '--toolsets', 'write', '--read-only'] });
    try {
      expect((await ro.listTools()).tools.map((t) => t.name)).not.toContain('castle_create_task');
      expect((await call(ro, 'castle_create_task', { title: 'x' })).text).toMatch(/read-only/);
    } finally {
      await ro.close();
    }
  });
});
