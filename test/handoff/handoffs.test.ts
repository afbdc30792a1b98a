/** Handoffs between projects and between two repositories' workspaces, anchors kept inside the target, and plan documents (issue 16, item 1). */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { expectCode } from '../helpers/core.js';

/** A temporary git repository with a `.cairn/` workspace holding one project rooted at it. */
async function repo(base: string, name: string, key: string, aliases: string[] = []): Promise<{ dir: string; cairn: Cairn }> {
  const dir = join(base, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  writeFileSync(join(dir, 'src', 'parser.ts'), 'export {};\n');
  const cairn = openCairn({ db: join(dir, '.cairn', 'cairn.db'), actor: `agent:${name}` });
  await cairn.call('create_project', { key, name, root: dir, aliases });
  return { dir, cairn };
}

let base: string;
let api: { dir: string; cairn: Cairn };
let core: { dir: string; cairn: Cairn };

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'cairn-handoff-'));
  api = await repo(base, 'api', 'API');
  core = await repo(base, 'core-lib', 'CORE', ['@acme/core', 'acme/core-lib']);
});
afterEach(async () => {
  await api.cairn.close();
  await core.cairn.close();
  rmSync(base, { recursive: true, force: true });
});

describe('submit_handoff', () => {
  it('hands a task to another repository: the task is created there with its origin and repo-relative anchors', async () => {
    const out = await api.cairn.call('submit_handoff', {
      repository: core.dir,
      title: 'Expose a retry hook',
      details: '## Why\nAPI-12 needs it',
      priority: 'high',
      tags: ['deps'],
      anchors: ['src/parser.ts', join(core.dir, 'src', 'parser.ts'), './src/../src/new-file.ts'],
    });
    expect(out).toMatchObject({ taskId: 'CORE-1', target: { project: 'CORE', repository: core.dir }, persistedOffline: false, replayed: false });
    const { task } = await core.cairn.call('get_task', { id: 'CORE-1' });
    expect(task).toMatchObject({ title: 'Expose a retry hook', description: '## Why\nAPI-12 needs it', priority: 'high', labels: ['deps'], anchors: ['src/parser.ts', 'src/new-file.ts'] });
    expect(task.origin).toBe(`API @ ${api.dir}`);
    // Nothing was written to the submitting workspace.
    expect((await api.cairn.call('list_tasks', { allProjects: true })).total).toBe(0);
  });

  it('resolves a target by alias inside another repository, and by key in the same workspace', async () => {
    await core.cairn.call('create_project', { key: 'DOCS', name: 'Docs', aliases: ['docs-site'] });
    expect((await api.cairn.call('submit_handoff', { repository: core.dir, target: 'acme/core-lib', title: 'By slug' })).taskId).toBe('CORE-1');
    expect((await api.cairn.call('submit_handoff', { repository: core.dir, target: 'docs-site', title: 'By alias' })).taskId).toBe('DOCS-1');
    await api.cairn.call('create_project', { key: 'WEB', name: 'Web' });
    const local = await api.cairn.call('submit_handoff', { target: 'WEB', title: 'Same workspace', from: 'API' });
    expect(local).toMatchObject({ taskId: 'WEB-1', target: { project: 'WEB' } });
    expect((await api.cairn.call('get_task', { id: 'WEB-1' })).task.origin).toBe(`API @ ${api.dir}`);
  });

  it('a target given as a repository path picks the project rooted there', async () => {
    await core.cairn.call('create_project', { key: 'OTHER', name: 'Other' });
    expect((await api.cairn.call('submit_handoff', { target: core.dir, title: 'By path' })).taskId).toBe('CORE-1');
  });

  it('the same idempotency key twice makes one task and answers it again', async () => {
    const args = { repository: core.dir, title: 'Once', idempotencyKey: 'api-12-retry' };
    const first = await api.cairn.call('submit_handoff', args);
    const again = await api.cairn.call('submit_handoff', args);
    expect(again).toMatchObject({ taskId: first.taskId, replayed: true });
    expect((await core.cairn.call('list_tasks', {})).total).toBe(1);
  });

  it('the same key from two connections at once makes one task: the key is checked and recorded in the write transaction', async () => {
    const other = openCairn({ db: join(core.dir, '.cairn', 'cairn.db'), actor: 'agent:other' });
    try {
      const outs = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? other : core.cairn).call('submit_handoff', { target: 'CORE', title: 'Raced', idempotencyKey: 'race-1' })));
      expect(new Set(outs.map((o) => o.taskId))).toEqual(new Set(['CORE-1']));
      expect(outs.filter((o) => !o.replayed)).toHaveLength(1);
      expect((await core.cairn.call('list_tasks', {})).total).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('an unknown target names the closest keys and aliases', async () => {
    const e = await expectCode(api.cairn.call('submit_handoff', { repository: core.dir, target: 'acme/core-lbi', title: 'x' }), 'PROJECT_NOT_FOUND');
    expect(e.message).toContain('acme/core-lib');
    const here = await expectCode(api.cairn.call('submit_handoff', { target: 'APII', title: 'x' }), 'PROJECT_NOT_FOUND');
    expect(here.message).toMatch(/Unknown target "APII".*Known: API/);
    expect(here.suggestions.join(' ')).toContain('repository');
  });

  it('a repository without a .cairn/ workspace is refused, saying how to make one', async () => {
    const bare = join(base, 'bare');
    mkdirSync(bare);
    const e = await expectCode(api.cairn.call('submit_handoff', { repository: bare, title: 'x' }), 'NO_WORKSPACE');
    expect(e.suggestions.join(' ')).toContain('cairn init');
  });

  it('refuses anchors outside the target repository: .., absolute paths elsewhere, symlinks out; nothing is created', async () => {
    symlinkSync(tmpdir(), join(core.dir, 'escape'));
    for (const anchor of ['../api/src/parser.ts', 'src/../../api/x.ts', join(api.dir, 'src', 'parser.ts'), '/etc/passwd', 'escape/anything.txt']) {
      const e = await expectCode(api.cairn.call('submit_handoff', { repository: core.dir, title: 'x', anchors: ['src/parser.ts', anchor] }), 'ANCHOR_OUTSIDE_REPOSITORY');
      expect(e.message).toContain(anchor);
    }
    expect((await core.cairn.call('list_tasks', {})).total).toBe(0);
  });
});

describe('get_task_document', () => {
  it('reports missing, writes a shell from the task when asked, then finds it active', async () => {
    await api.cairn.call('submit_handoff', { repository: core.dir, title: 'Plan me', details: 'Steps follow', anchors: ['src/parser.ts'] });
    const path = join(core.dir, '.cairn', 'docs', 'CORE-1.md');
    expect(await api.cairn.call('get_task_document', { id: 'CORE-1', repository: core.dir })).toMatchObject({ documentPath: path, status: 'missing', created: false });
    const made = await core.cairn.call('get_task_document', { id: 'CORE-1', requireExisting: false });
    expect(made).toMatchObject({ documentPath: path, status: 'active', created: true });
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('# CORE-1: Plan me');
    expect(text).toContain('Steps follow');
    expect(text).toContain('`src/parser.ts`');
    expect((await core.cairn.call('get_task', { id: 'CORE-1' })).task.documentPath).toBe('.cairn/docs/CORE-1.md');
    writeFileSync(path, '# edited\n');
    expect(await api.cairn.call('get_task_document', { id: 'CORE-1', repository: core.dir, requireExisting: false })).toMatchObject({ status: 'active', created: false });
    expect(readFileSync(path, 'utf8')).toBe('# edited\n');
  });

  it('a document the task records but that is not on disk is pending', async () => {
    await core.cairn.call('create_task', { project: 'CORE', title: 'Recorded', documentPath: 'plans/recorded.md' });
    expect(await core.cairn.call('get_task_document', { id: 'CORE-1' })).toMatchObject({ documentPath: join(core.dir, 'plans', 'recorded.md'), status: 'pending' });
    expect(existsSync(join(core.dir, 'plans'))).toBe(false);
  });

  it('a document path recorded outside the repository is neither read nor written', async () => {
    const outside = join(base, 'elsewhere', 'owned.md');
    await core.cairn.call('create_task', { project: 'CORE', title: 'Sneaky', documentPath: outside });
    await core.cairn.call('create_task', { project: 'CORE', title: 'Climbing', documentPath: '../api/owned.md' });
    for (const id of ['CORE-1', 'CORE-2']) {
      await expectCode(core.cairn.call('get_task_document', { id, requireExisting: false }), 'ANCHOR_OUTSIDE_REPOSITORY');
    }
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(api.dir, 'owned.md'))).toBe(false);
  });

  it('an unknown task is TASK_NOT_FOUND', async () => {
    await expectCode(core.cairn.call('get_task_document', { id: 'CORE-9' }), 'TASK_NOT_FOUND');
  });
});
