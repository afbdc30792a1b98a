/**
 * Seeds 000 and 001 (Castle) served in place: the castle profile over a real MCP client with the
 * host configuration the seeds give (CASTLE_DB_PATH naming Castle's own castle.db, CASTLE_PROJECT_PATH
 * the agent's project), while "Castle's app" keeps the database in memory and saves the whole file.
 * Seed 000's edge-case table holds on the linked database; Castle's file is never written unless the
 * link is made writable, and then a write the app's next save erased is reported.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { Database } from '../../src/store/sqlite/native.js';
import { call, connectV1, ok } from '../mcp/helpers.js';
import { CastleApp, castleDb, scratch, type Scratch } from './link-helpers.js';

const A1 = '5b0f7a52-1c1e-4b7e-9d57-0c6f1e0b1a01';
const PROJECT = '/home/dev/castle';
let s: Scratch;
let file: string;
let c: Client;
const serve = (db: string, toolsets: string[] = []) =>
  connectV1({ env: { CASTLE_DB_PATH: db, CASTLE_PROJECT_PATH: PROJECT }, args: ['--profile', 'castle', ...(toolsets.length ? ['--toolsets', toolsets.join(',')] : [])] });
const castleTables = (f: string) => new Database(f, { readonly: true }).prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];

beforeAll(async () => {
  s = scratch('cairn-castle-link-');
  file = join(s.dir, 'userData', 'castle.db');
  castleDb(file, `UPDATE tasks SET research_content = '${'r'.repeat(2500)}' WHERE id = '${A1}';`);
  c = await serve(file);
});
afterAll(async () => {
  await c?.close();
  s?.cleanup();
});

describe("castle link: Castle's own database, read in place", () => {
  it("lists, gets (by Castle's id or a title search), searches and sums up the agent's project", async () => {
    const list = await ok(c, 'castle_list_tasks');
    expect(list.text).toContain('## Castle Tasks (2)');
    expect(list.text).toContain(`- **Add dark mode support** (in_progress, feature) [UI, theme] | PR: https://github.com/acme/castle/pull/51\n  ID: CASTLE-1 (Castle ${A1})`);
    expect(list.text).not.toContain('Update dependencies');
    expect((list.data.tasks as any[])[0]).toMatchObject({ castleId: expect.any(String) });
    const byUuid = await ok(c, 'castle_get_task', { taskId: A1 });
    expect(byUuid.text).toContain('**Branch:** feat/dark-mode');
    expect(byUuid.text).toContain('**GitHub issue:** acme/castle#42');
    expect(byUuid.text).toContain('Research review (approved): Plan is sound; check contrast ratios.');
    expect((await ok(c, 'castle_get_task', { search: 'dark mode' })).text).toContain(`**ID:** CASTLE-1 (Castle ${A1})`);
    expect((await ok(c, 'castle_search_tasks', { query: 'ACP' })).text).toContain('Spike: ACP session reuse');
    expect((await ok(c, 'castle_task_summary')).data).toMatchObject({ total: 3, byState: { new: 1, in_progress: 1, done: 1 } });
  });

  it('edge case: long research is cut at 2,000 characters', async () => {
    const r = await ok(c, 'castle_get_task', { taskId: A1 });
    const research = r.text.slice(r.text.indexOf('### Research\n') + '### Research\n'.length);
    // The review and the research content, joined, cut at 2,000 characters as seed 000 cuts them.
    expect(research.indexOf('\n\n**ID:**')).toBe(2000);
    expect(r.text).toMatch(/Research cut at 2,000 of 2,5\d\d characters$/);
  });

  it("edge case: each call reads fresh data: the app's save shows on the next call, a row it deleted is gone", async () => {
    const app = new CastleApp(file);
    app
      .run("UPDATE tasks SET state = 'review', updated_at = '2026-03-01 10:00:00' WHERE id = ?", A1)
      .run(
        "INSERT INTO tasks (id, title, state, kind, project_path, created_at, updated_at) VALUES ('new-1', 'Written in Castle just now', 'new', 'bug', ?, '2026-03-01 10:00:00', '2026-03-01 10:00:00')",
        PROJECT,
      )
      .run("DELETE FROM tasks WHERE id = '5b0f7a52-1c1e-4b7e-9d57-0c6f1e0b1a03'")
      .save();
    app.close();
    const list = await ok(c, 'castle_list_tasks');
    expect(list.text).toContain('**Add dark mode support** (review, feature)');
    expect(list.text).toContain('**Written in Castle just now** (new, bug)');
    expect(list.text).not.toContain('ACP session reuse');
  });

  it('edge case: the file caught half-saved is not read; the last whole copy answers, then the whole file', async () => {
    const whole = readFileSync(file);
    const app = new CastleApp(file);
    app.run("UPDATE tasks SET title = 'Dark mode, saved whole' WHERE id = ?", A1);
    const next = app.db.serialize();
    app.close();
    writeFileSync(file, next.subarray(0, Math.floor(next.length / 2)));
    const during = await ok(c, 'castle_get_task', { taskId: A1 });
    expect(during.text).toContain('## Add dark mode support');
    writeFileSync(file, next);
    expect((await ok(c, 'castle_get_task', { taskId: A1 })).text).toContain('## Dark mode, saved whole');
    expect(whole.length).toBeGreaterThan(0);
  });

  it("refuses castle_create_task and castle_update_task with why and what to do instead; Cairn's own additions are kept beside the file", async () => {
    const before = readFileSync(file);
    const w = await serve(file, ['write']);
    try {
      const upd = await call(w, 'castle_update_task', { taskId: A1, state: 'done' });
      expect(upd.isError).toBe(true);
      expect(upd.text).toContain('LINK_READ_ONLY');
      expect(upd.text).toContain("Castle's app keeps its database in memory and saves the whole file");
      expect(upd.text).toContain('--writable');
      const add = await call(w, 'castle_create_task', { title: 'From the agent' });
      expect(add.isError).toBe(true);
      expect(add.text).toContain('LINK_READ_ONLY');
    } finally {
      await w.close();
    }
    // Claims, comments and checklists are Cairn's: allowed on a linked task, kept in the workspace beside castle.db.
    const lib = openCairn({ db: join(s.dir, 'userData', '.cairn', 'cairn.db'), actor: 'agent:one' });
    try {
      await lib.call('claim_task', { id: A1 });
      await lib.call('add_comment', { id: A1, body: 'Picked up by an agent.' });
      await lib.call('update_checklist', { id: A1, ops: [{ op: 'add', text: 'Audit contrast' }] });
      const t = (await lib.call('get_task', { id: A1 })).task;
      expect(t).toMatchObject({ claim: { actor: 'agent:one' }, origin: `castle:${A1}` });
      expect(t.checklist.map((i) => i.text)).toEqual(['Audit contrast']);
    } finally {
      await lib.close();
    }
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(castleTables(file)).toEqual(['research_reviews', 'task_label_assignments', 'task_labels', 'tasks']);
  });
});

describe('castle link: seed 000 edge cases of absence and age', () => {
  it('no database yet: "No tasks found." and no file is created, neither castle.db nor anything beside it', async () => {
    const dir = join(s.dir, 'fresh-userData');
    const v1 = await serve(join(dir, 'castle.db'));
    try {
      expect((await ok(v1, 'castle_list_tasks')).text).toBe('No tasks found.');
      expect((await ok(v1, 'castle_search_tasks', { query: 'x' })).text).toBe('No tasks found.');
      expect((await ok(v1, 'castle_task_summary')).text).toBe('No tasks found.');
      expect(existsSync(dir)).toBe(false);
    } finally {
      await v1.close();
    }
  });

  it("an older Castle schema (seed 001's columns, no PR or worktree columns) reads gracefully", async () => {
    const old = join(s.dir, 'old', 'castle.db');
    mkdirSync(join(s.dir, 'old'));
    const sql = `CREATE TABLE tasks (id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT DEFAULT '', state TEXT NOT NULL, kind TEXT NOT NULL,
      project_path TEXT, research_content TEXT, research_agent_id TEXT, implement_agent_id TEXT, github_issue_number INTEGER, github_repo TEXT,
      close_reason TEXT, created_at DATETIME DEFAULT CURRENT_TIMESTAMP, updated_at DATETIME DEFAULT CURRENT_TIMESTAMP);
      INSERT INTO tasks (id, title, state, kind, project_path, github_repo, github_issue_number) VALUES ('o1', 'From an older Castle', 'active', 'chore', '${PROJECT}', 'acme/castle', 7);`;
    const fresh = new Database(old);
    fresh.exec(sql);
    fresh.close();
    const v1 = await serve(old);
    try {
      expect((await ok(v1, 'castle_list_tasks')).text).toContain('**From an older Castle** (active, chore)');
      expect((await ok(v1, 'castle_get_task', { taskId: 'o1' })).text).toContain('**GitHub issue:** acme/castle#7');
    } finally {
      await v1.close();
    }
  });

  it("Castle's file is never migrated or marked, and any other SQLite file is still refused as a workspace", async () => {
    const db = new Database(file, { readonly: true });
    expect([db.pragma('application_id', { simple: true }), db.pragma('user_version', { simple: true })]).toEqual([0, 0]);
    db.close();
    let refused: unknown;
    try {
      await openCairn({ db: file }).call('list_projects', {});
    } catch (err) {
      refused = err;
    }
    expect(refused).toMatchObject({ code: 'NOT_A_WORKSPACE' });
    expect(readdirSync(join(s.dir, 'userData')).sort()).toEqual(['.cairn', 'castle.db']);
  });
});

describe('castle link: writable, for when the app is closed', () => {
  it("writes rows in Castle's schema; a write the app's later save erased is reported, never silently lost", async () => {
    const dir = join(s.dir, 'writable');
    const db = join(dir, 'castle.db');
    castleDb(db);
    const appMemory = new CastleApp(db);
    const lib = openCairn({ db: join(dir, '.cairn', 'cairn.db'), actor: 'agent' });
    try {
      expect((await lib.call('link_source', { path: db, writable: true })).link).toMatchObject({ kind: 'castle', writable: true, state: 'in sync', records: 5 });
      const w = await serve(db, ['write']);
      try {
        await ok(w, 'castle_update_task', { taskId: A1, state: 'review', labels: ['UI', 'a11y'] });
        const created = await ok(w, 'castle_create_task', { title: 'Written through Cairn', kind: 'bug', labels: ['infra'] });
        expect(created.text).toContain('Written through Cairn');
      } finally {
        await w.close();
      }
      const raw = new Database(db, { readonly: true });
      expect(raw.prepare('SELECT state FROM tasks WHERE id = ?').pluck().get(A1)).toBe('review');
      const labels = raw.prepare('SELECT l.name FROM task_label_assignments a JOIN task_labels l ON l.id = a.label_id WHERE a.task_id = ? ORDER BY l.name').pluck().all(A1);
      expect(labels).toEqual(['UI', 'a11y']);
      const row = raw.prepare("SELECT id, state, kind, project_path FROM tasks WHERE title = 'Written through Cairn'").get() as Record<string, string>;
      expect(row).toMatchObject({ state: 'new', kind: 'bug', project_path: PROJECT });
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      raw.close();
      // The app, holding the database from before in memory, saves after a change of its own.
      appMemory.run("UPDATE tasks SET title = 'Spike: ACP sessions' WHERE id = '5b0f7a52-1c1e-4b7e-9d57-0c6f1e0b1a03'").save();
      const { links } = await lib.call('list_links', {});
      expect(links[0]).toMatchObject({ state: 'conflict', lost: [{ task: 'CASTLE-1', fields: ['status', 'labels'] }] });
      const history = (await lib.call('task_history', { id: A1 })).events;
      expect(history.find((e) => e.type === 'link.write_lost')?.changes.status).toEqual({ before: 'review', after: 'in_progress' });
      expect((await lib.call('get_task', { id: A1 })).task.status).toBe('in_progress');
      // Linking again acknowledges it.
      await lib.call('link_source', { path: db, writable: true });
      expect((await lib.call('list_links', {})).links[0]!.state).toBe('in sync');
    } finally {
      appMemory.close();
      await lib.close();
    }
  });
});
