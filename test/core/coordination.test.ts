// Reserved paths, checkpoints and completion evidence (docs/coordination.md), in process on a real
// workspace; evidence against a real git repository.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { expectCode, manualClock } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let bob: Cairn;
const clock = manualClock();
beforeEach(async () => {
  clock.set('2026-04-01T12:00:00.000Z');
  c = tempCairn({ clock, actor: 'alice' });
  bob = openCairn({ db: c.ws.db, clock, actor: 'bob' });
  await c.call('create_project', { key: 'API', name: 'API' });
});
afterEach(async () => {
  await bob.close();
  await c.done();
});
const create = async (title: string, extra: Record<string, unknown> = {}) => (await c.call('create_task', { project: 'API', title, ...extra } as never)).task;

describe('reserved paths', () => {
  it('claim_next passes over a task whose paths overlap a live claim and says why; claim_task refuses it unless forced; check_paths names the holder', async () => {
    const a = await create('api', { touches: ['src/api/**'], priority: 'urgent' });
    const b = await create('users', { touches: ['src/api/users.ts'], priority: 'high' });
    const d = await create('docs', { touches: ['docs'] });
    await c.call('claim_task', { id: a.id });
    const next = await bob.call('claim_next', {} as never);
    expect(next.task?.id).toBe(d.id);
    expect(next.skipped).toEqual([{ id: b.id, reservedBy: [{ task: a.id, holder: 'alice', paths: ['src/api/**'] }] }]);
    await expectCode(bob.call('claim_task', { id: b.id } as never), 'PATHS_RESERVED');
    const paths = await bob.call('check_paths', { paths: ['src/api/x.ts', 'README.md', 'docs/guide.md'] } as never);
    // bob's own claim (docs) leaves docs/guide.md free for him, and says whose it is.
    expect(paths).toEqual({
      held: [{ path: 'src/api/x.ts', reserved: 'src/api/**', task: a.id, holder: 'alice', expiresAt: expect.any(String) }],
      free: ['README.md', 'docs/guide.md'],
      yours: [{ path: 'docs/guide.md', reserved: 'docs', task: d.id }],
    });
    const forced = await bob.call('claim_task', { id: b.id, force: true } as never);
    expect(forced.task.claim?.actor).toBe('bob');
  });

  it('touches stay inside the repository', async () => {
    await expectCode(c.call('create_task', { project: 'API', title: 'x', touches: ['../../etc/**'] } as never), 'ANCHOR_OUTSIDE_REPOSITORY');
  });
});

describe('checkpoints', () => {
  it('the next claim returns the latest checkpoint; only the holder writes one while a claim runs', async () => {
    const t = await create('a');
    await c.call('claim_task', { id: t.id, leaseSeconds: 60 });
    await c.call('checkpoint_task', { id: t.id, summary: 'Parser fixed', next: 'Lexer', head: 'abc1234', questions: ['CRLF?'] } as never);
    await expectCode(bob.call('checkpoint_task', { id: t.id, summary: 'mine' } as never), 'CLAIMED_BY_OTHER');
    clock.advance(120_000);
    const next = await bob.call('claim_task', { id: t.id } as never);
    expect(next.task.checkpoint).toMatchObject({ summary: 'Parser fixed', next: 'Lexer', head: 'abc1234', questions: ['CRLF?'], actor: 'alice' });
    expect((await c.call('task_history', { id: t.id })).events.some((e) => e.type === 'task.checkpoint')).toBe(true);
    await expectCode(bob.call('checkpoint_task', { id: t.id, summary: 'x'.repeat(4000), changedFiles: Array.from({ length: 200 }, (_, i) => `${'d'.repeat(400)}/${i}`) } as never), 'VALIDATION_ERROR');
  });
});

describe('evidence', () => {
  it('verifies a commit in the project repository, refuses a missing one, and a project may require evidence', async () => {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-evidence-')));
    try {
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd: repo, encoding: 'utf8' }).trim();
      git('init', '-q');
      writeFileSync(join(repo, 'f'), 'x');
      git('add', '.');
      git('commit', '-qm', 'c');
      const sha = git('rev-parse', 'HEAD');
      await c.call('update_project', { key: 'API', root: repo, requireEvidence: true } as never);
      const a = await create('a');
      await expectCode(c.call('complete_task', { id: a.id } as never), 'VALIDATION_ERROR');
      await expectCode(c.call('complete_task', { id: a.id, evidence: { commit: 'deadbeef' } } as never), 'VALIDATION_ERROR');
      const done = await c.call('complete_task', { id: a.id, evidence: { commit: sha } } as never);
      expect(done.task.evidence).toMatchObject({ commit: sha, status: 'verified', actor: 'alice' });
      const b = await create('b');
      const reported = await c.call('complete_task', { id: b.id, evidence: { test: { command: 'npm test', exitCode: 0 } } } as never);
      expect(reported.task.evidence).toMatchObject({ status: 'reported' });
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
