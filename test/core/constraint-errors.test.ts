/** Driver refusals reach the caller as CairnErrors with a code (issue 19 item 4), never as INTERNAL. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toCairnError } from '../../src/core/errors.js';
import { expectCode } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
beforeEach(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'API', name: 'A' });
});
afterEach(async () => c.done());

describe('constraint violations and missing rows in the store', () => {
  it('a foreign-key violation is CONSTRAINT_VIOLATION (a conflict), and nothing is written', async () => {
    const before = await c.store.read((tx) => tx.lastSeq());
    const e = await expectCode(
      c.store.write(async (tx) => {
        await tx.appendEvent({ at: '2026-01-01T00:00:00.000Z', actor: 't', projectUid: null, taskUid: null, type: 'x', changes: {} });
        await tx.addComment('no-such-task', { id: 'c1', author: 't', kind: 'comment', body: 'b', createdAt: '2026-01-01T00:00:00.000Z' });
      }),
      'CONSTRAINT_VIOLATION',
    );
    expect(e.kind).toBe('conflict');
    expect(e.details).toMatchObject({ kind: 'foreign key' });
    expect(toCairnError(e).code).toBe('CONSTRAINT_VIOLATION');
    expect(await c.store.read((tx) => tx.lastSeq())).toBe(before);
  });

  it('a unique violation names the constraint', async () => {
    const p = (await c.store.read((tx) => tx.getProjectByKey('API')))!;
    const e = await expectCode(
      c.store.write((tx) => tx.insertProject({ ...p, uid: 'other-uid' }, [])),
      'CONSTRAINT_VIOLATION',
    );
    expect(e.details).toMatchObject({ kind: 'unique', constraint: 'projects.key' });
    expect(e.message).toContain('projects.key');
  });

  it('allocateSeq on a missing project is PROJECT_NOT_FOUND', async () => {
    const e = await expectCode(
      c.store.write((tx) => tx.allocateSeq('no-such-project')),
      'PROJECT_NOT_FOUND',
    );
    expect(e.kind).toBe('not_found');
  });
});
