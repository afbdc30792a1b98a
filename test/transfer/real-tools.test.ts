/** Task Master and Backlog.md imports, from fixtures the real tools wrote (scripts/make-import-fixtures.sh; versions in test/fixtures/import/TOOL-VERSIONS). */
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { tempCairn } from '../helpers/workspace.js';
import { exportText, freshWorkspaces, importInto } from './helpers.js';

const FIX = resolve(__dirname, '..', 'fixtures', 'import');
const fresh = freshWorkspaces();

const byTitle = async (c: ReturnType<typeof tempCairn>, project: string) => {
  const { tasks } = await c.call('list_tasks', { project, includeDone: true, includeArchived: true, sort: 'id', limit: 200 });
  return new Map(await Promise.all(tasks.map(async (t) => [t.title, (await c.call('get_task', { id: t.id })).task] as const)));
};

describe('import from Task Master', () => {
  it('maps tags, subtasks, dependencies, statuses, priorities and details; a second import changes nothing', async () => {
    const c = fresh();
    const repo = join(c.ws.dir, 'demo');
    cpSync(join(FIX, 'taskmaster'), repo, { recursive: true });
    const report = await importInto(c, { path: repo, project: 'DEMO' });
    expect(report.source).toBe('taskmaster');
    expect(report.tasks).toEqual({ created: 8, updated: 0, unchanged: 0 });
    const t = await byTitle(c, 'DEMO');
    expect(t.get('Set up database schema')).toMatchObject({ status: 'done', priority: 'high', labels: [] });
    expect(t.get('Set up database schema')!.description).toBe('Create tables for users and sessions\n\n## Details\n\nUse PostgreSQL; migrations in db/migrations');
    const login = t.get('Login endpoint')!;
    expect(login).toMatchObject({ status: 'in_progress', priority: 'medium', blockedBy: [t.get('Set up database schema')!.id] });
    expect(login.children).toEqual([t.get('Validate input')!.id, t.get('Issue token')!.id]);
    expect(t.get('Issue token')).toMatchObject({ parentId: login.id, blockedBy: [t.get('Validate input')!.id] });
    expect(t.get('Email template')).toMatchObject({ status: 'done', parentId: t.get('Password reset email')!.id });
    expect(t.get('Password reset email')!.blockedBy).toEqual([t.get('Set up database schema')!.id, login.id]);
    // The second tag: its own numbering (its task 1 is the webhook), labelled with the tag.
    expect(t.get('Stripe webhook')).toMatchObject({ labels: ['feature-billing'], priority: 'high' });
    expect(t.get('Invoice PDF')).toMatchObject({ status: 'backlog', blockedBy: [t.get('Stripe webhook')!.id] });
    const before = await exportText(c);
    expect((await importInto(c, { path: repo, project: 'DEMO' })).tasks).toEqual({ created: 0, updated: 0, unchanged: 8 });
    expect(await exportText(c)).toBe(before);
  });
});

describe('import from Backlog.md', () => {
  it('maps the workflow, acceptance criteria, Definition of Done, dependencies, parents, ordinals, milestones, drafts, decisions and docs', async () => {
    const c = fresh();
    const repo = join(c.ws.dir, 'site');
    cpSync(join(FIX, 'backlog'), repo, { recursive: true });
    const dry = await importInto(c, { path: repo, dryRun: true });
    expect(dry.tasks).toEqual({ created: 7, updated: 0, unchanged: 0 });
    expect((await c.call('list_projects', {})).projects).toEqual([]);
    const report = await importInto(c, { path: repo });
    expect(report.source).toBe('backlog');
    const key = report.projects.created[0]!;
    const p = (await c.call('get_project', { key })).project;
    expect(p.statuses.map((s) => [s.name, s.category])).toEqual([
      ['draft', 'backlog'],
      ['to_do', 'todo'],
      ['in_progress', 'in_progress'],
      ['done', 'done'],
      ['canceled', 'canceled'],
    ]);
    const t = await byTitle(c, key);
    expect(t.get('Set up CI')).toMatchObject({ status: 'done', priority: 'high', labels: ['ci', 'infra'], description: 'Run tests on every push' });
    expect(t.get('Set up CI')!.checklist.map((i) => [i.text, i.checked])).toEqual([
      ['Tests run on push', true],
      ['Badge in README', false],
      ['DoD: Docs updated', false],
    ]);
    expect(t.get('Add login page')).toMatchObject({ status: 'in_progress', assignee: 'alice', labels: ['milestone:v1.0', 'ui'], blockedBy: [t.get('Set up CI')!.id], position: 2000 });
    expect(t.get('Login form styles')).toMatchObject({ parentId: t.get('Add login page')!.id, position: 3000 });
    expect(t.get('Write release notes')!.description).toBe('For v1.0\n\n## Implementation Notes\n\nCollect from merged PRs');
    expect(t.get('Explore dark mode')).toMatchObject({ status: 'draft' });
    expect(t.get('Use PostgreSQL')).toMatchObject({ kind: 'spike', labels: ['decision'], status: 'to_do' });
    expect(t.get('Architecture overview')).toMatchObject({ kind: 'chore', labels: ['doc'], status: 'done' });
    expect((await importInto(c, { path: repo })).tasks).toEqual({ created: 0, updated: 0, unchanged: 7 });
  });
});
