/** Issue 2 "Bad input": every wrong call gets a clear error with the right code, and nothing is written. */
import { Database } from '../../src/store/sqlite/native.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Store } from '../../src/index.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { expectCode, rawCall, snapshot } from '../helpers/core.js';
import { onPostgres } from '../helpers/engine.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
beforeEach(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'API', name: 'API' });
  await c.call('create_task', { project: 'API', title: 'Add login', checklist: ['one', 'two'], labels: ['auth'] });
  await c.call('create_task', { project: 'API', title: 'Add logout', blockedBy: ['API-1'] });
  await c.call('create_task', { project: 'API', title: 'Write docs' });
  await c.call('add_dependency', { taskId: 'API-3', blockedBy: 'API-2' });
});
afterEach(async () => c.done());

type Case = [name: string, op: string, args: unknown, code: string, mentions?: RegExp];
const long = 'x'.repeat(201);

const CASES: Case[] = [
  ['empty title', 'create_task', { project: 'API', title: '' }, 'VALIDATION_ERROR', /title/],
  ['blank title', 'create_task', { project: 'API', title: '   ' }, 'VALIDATION_ERROR', /title must not be empty/],
  ['201-char title', 'create_task', { project: 'API', title: long }, 'VALIDATION_ERROR', /title.*200/],
  ['201-char title on update', 'update_task', { id: 'API-1', title: long }, 'VALIDATION_ERROR', /200/],
  ['empty title on update', 'update_task', { id: 'API-1', title: '' }, 'VALIDATION_ERROR', /title/],
  ['title not a string', 'create_task', { project: 'API', title: 42 }, 'VALIDATION_ERROR', /title/],
  ['unknown status on create', 'create_task', { project: 'API', title: 'x', status: 'doing' }, 'INVALID_STATUS', /doing.*todo/],
  ['unknown status on update', 'update_task', { id: 'API-1', status: 'doing' }, 'INVALID_STATUS', /Valid statuses/],
  ['unknown status in list', 'list_tasks', { project: 'API', status: 'doing' }, 'INVALID_STATUS', /doing/],
  ['unknown task id', 'get_task', { id: 'API-99' }, 'TASK_NOT_FOUND', /API-99/],
  ['unknown task id on update', 'update_task', { id: 'API-99', title: 'x' }, 'TASK_NOT_FOUND', /API-99/],
  ['unknown project in task id', 'complete_task', { id: 'APX-1' }, 'TASK_NOT_FOUND', /APX.*API-1/],
  ['unknown ULID', 'get_task', { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }, 'TASK_NOT_FOUND', /01ARZ3NDEKTSV4RRFFQ69G5FAV/],
  ['unknown project key', 'create_task', { project: 'NOPE', title: 'x' }, 'PROJECT_NOT_FOUND', /NOPE/],
  ['unknown blocker', 'add_dependency', { taskId: 'API-1', blockedBy: 'API-42' }, 'TASK_NOT_FOUND', /API-42/],
  ['malformed key (no dash)', 'get_task', { id: 'API12' }, 'INVALID_ID', /API12.*API-12/],
  ['malformed key (zero)', 'update_task', { id: 'API-0', title: 'x' }, 'INVALID_ID'],
  ['malformed key (one letter)', 'add_comment', { id: 'A-1', body: 'x' }, 'INVALID_ID'],
  ['malformed key (words)', 'complete_task', { id: 'add login' }, 'INVALID_ID'],
  ['empty id', 'get_task', { id: '' }, 'VALIDATION_ERROR', /id/],
  ['malformed project key', 'create_project', { key: 'api1', name: 'x' }, 'VALIDATION_ERROR', /key/],
  ['negative limit', 'list_tasks', { limit: -1 }, 'VALIDATION_ERROR', /limit/],
  ['zero limit', 'next_tasks', { limit: 0 }, 'VALIDATION_ERROR', /limit/],
  ['huge limit', 'list_tasks', { limit: 1_000_000 }, 'VALIDATION_ERROR', /limit/],
  ['huge search limit', 'search_tasks', { query: 'x', limit: 10_000 }, 'VALIDATION_ERROR', /limit/],
  ['fractional limit', 'list_tasks', { limit: 2.5 }, 'VALIDATION_ERROR', /limit/],
  ['string limit', 'list_tasks', { limit: '10' }, 'VALIDATION_ERROR', /limit/],
  ['negative history limit', 'task_history', { id: 'API-1', limit: -5 }, 'VALIDATION_ERROR', /limit/],
  ['cycle', 'add_dependency', { taskId: 'API-1', blockedBy: 'API-3' }, 'CYCLE_DETECTED', /API-1 → API-3 → API-2 → API-1/],
  ['self dependency', 'add_dependency', { taskId: 'API-1', blockedBy: 'API-1' }, 'SELF_DEPENDENCY', /API-1/],
  ['stale version', 'update_task', { id: 'API-3', title: 'x', expectedVersion: 1 }, 'VERSION_CONFLICT', /version/],
  [
    'checklist index out of range',
    'update_checklist',
    {
      id: 'API-1',
      ops: [
        { op: 'check', index: 0 },
        { op: 'check', index: 2 },
      ],
    },
    'CHECKLIST_INDEX_OUT_OF_RANGE',
    /index 2/,
  ],
  ['checklist negative index', 'update_checklist', { id: 'API-1', ops: [{ op: 'check', index: -1 }] }, 'VALIDATION_ERROR', /index/],
  ['checklist unknown op', 'update_checklist', { id: 'API-1', ops: [{ op: 'explode', index: 0 }] }, 'VALIDATION_ERROR', /op/],
  ['checklist empty batch', 'update_checklist', { id: 'API-1', ops: [] }, 'VALIDATION_ERROR', /at least one/],
  ['label not a string', 'create_task', { project: 'API', title: 'x', labels: [1] }, 'VALIDATION_ERROR', /label must be a string/],
  ['label null', 'update_task', { id: 'API-1', addLabels: [null] }, 'VALIDATION_ERROR', /label/],
  ['labels not an array', 'create_task', { project: 'API', title: 'x', labels: 'auth' }, 'VALIDATION_ERROR', /labels/],
  ['label with comma', 'update_task', { id: 'API-1', labels: ['a,b'] }, 'VALIDATION_ERROR', /comma/],
  ['unknown argument', 'create_task', { project: 'API', titel: 'x' }, 'VALIDATION_ERROR', /unknown field "titel".*Did you mean "title"/],
  ['unknown argument on update', 'update_task', { id: 'API-1', prioritty: 'high' }, 'VALIDATION_ERROR', /priority/],
  ['unknown argument on list', 'list_tasks', { projcet: 'API' }, 'VALIDATION_ERROR', /project/],
  ['arguments not an object', 'list_tasks', ['API'], 'VALIDATION_ERROR', /object/],
  ['bad enum', 'update_task', { id: 'API-1', priority: 'critical' }, 'VALIDATION_ERROR', /priority/],
  ['bad kind', 'create_task', { project: 'API', title: 'x', kind: 'story' }, 'VALIDATION_ERROR', /kind/],
  ['bad score', 'update_task', { id: 'API-1', score: Number.POSITIVE_INFINITY }, 'VALIDATION_ERROR', /score/],
  ['bad updatedSince', 'list_tasks', { updatedSince: 'yesterday' }, 'VALIDATION_ERROR', /updatedSince/],
  ['bad link', 'update_task', { id: 'API-1', links: { pr: 3 } }, 'VALIDATION_ERROR', /links/],
  ['lease too short', 'claim_task', { id: 'API-1', leaseSeconds: 1 }, 'VALIDATION_ERROR', /leaseSeconds/],
  ['purge without confirm', 'purge_task', { id: 'API-1' }, 'VALIDATION_ERROR', /confirm/],
  ['duplicate project', 'create_project', { key: 'API', name: 'again' }, 'PROJECT_EXISTS', /API/],
  ['remove status in use', 'update_project', { key: 'API', statuses: [{ op: 'remove', name: 'todo' }] }, 'STATUS_IN_USE', /todo/],
  ['release an unclaimed task', 'release_task', { id: 'API-1' }, 'NOT_CLAIMED', /not claimed/],
  ['unknown operation', 'drop_everything', {}, 'VALIDATION_ERROR', /drop_everything/],
];

describe('bad input', () => {
  it.each(CASES)('%s → %s… %s, nothing written', async (_name, op, args, code, mentions) => {
    const before = await snapshot(c);
    const e = await expectCode(rawCall(c, op, args), code);
    if (mentions) expect(e.message).toMatch(mentions);
    expect(await snapshot(c)).toEqual(before);
  });

  it('a 200-character title is fine; the boundary is exact', async () => {
    const { task } = await c.call('create_task', { project: 'API', title: 'y'.repeat(200) });
    expect(task.title).toHaveLength(200);
  });

  it('validation errors name each bad field and promise nothing changed', async () => {
    const e = await expectCode(rawCall(c, 'create_task', { project: 'API', title: '', priority: 'huge', labels: [7] }), 'VALIDATION_ERROR');
    expect(e.message).toMatch(/title/);
    expect(e.message).toMatch(/priority/);
    expect(e.message).toMatch(/labels\.0/);
    expect(e.message).toMatch(/Nothing was changed/);
    expect(e.suggestions.length).toBeGreaterThan(0);
    expect((e.details as { issues: unknown[] }).issues).toHaveLength(3);
  });

  it('a not-found id suggests the closest ids with their titles', async () => {
    const e = await expectCode(c.call('get_task', { id: 'API-11' }), 'TASK_NOT_FOUND');
    expect(e.message).toContain('API-1 "Add login"');
    expect(e.suggestions).toContain('get_task {id: "API-1"}');
    expect(e.details).toMatchObject({ wanted: 'API-11' });
    const p = await expectCode(c.call('get_task', { id: 'APO-2' }), 'TASK_NOT_FOUND');
    expect(p.suggestions).toContain('get_task {id: "API-2"}');
  });

  it('every error code users can hit says what, why, and gives a next step; kinds map as adapters expect', async () => {
    await c.call('claim_task', { id: 'API-3', force: true }); // blocked by API-2: a forced claim
    await c.call('create_task', { project: 'API', title: 'gone' });
    await c.call('delete_task', { id: 'API-4' });
    const other = openCairn({ db: c.ws.db, actor: 'someone-else' });
    const ro = openCairn({ db: c.ws.db, readOnly: true });
    const triggers: Array<[string, string, () => Promise<unknown>]> = [
      ['VALIDATION_ERROR', 'invalid', () => rawCall(c, 'create_task', { project: 'API', titel: 'x' })],
      ['INVALID_STATUS', 'invalid', () => c.call('update_task', { id: 'API-1', status: 'nope' })],
      ['INVALID_ID', 'invalid', () => c.call('get_task', { id: 'nope' })],
      ['CYCLE_DETECTED', 'conflict', () => c.call('add_dependency', { taskId: 'API-1', blockedBy: 'API-2' })],
      ['SELF_DEPENDENCY', 'invalid', () => c.call('add_dependency', { taskId: 'API-1', blockedBy: 'API-1' })],
      ['CHECKLIST_INDEX_OUT_OF_RANGE', 'invalid', () => c.call('update_checklist', { id: 'API-1', ops: [{ op: 'remove', index: 9 }] })],
      ['TASK_NOT_FOUND', 'not_found', () => c.call('get_task', { id: 'API-99' })],
      ['PROJECT_NOT_FOUND', 'not_found', () => c.call('list_tasks', { project: 'NOPE' })],
      ['PROJECT_EXISTS', 'conflict', () => c.call('create_project', { key: 'API', name: 'x' })],
      ['VERSION_CONFLICT', 'conflict', () => c.call('update_task', { id: 'API-1', title: 'x', expectedVersion: 7 })],
      ['ALREADY_CLAIMED', 'conflict', () => other.call('claim_task', { id: 'API-3' })],
      ['BLOCKED', 'conflict', () => other.call('claim_task', { id: 'API-2' })],
      ['NOT_CLAIMED', 'conflict', () => c.call('release_task', { id: 'API-1' })],
      ['TASK_DELETED', 'conflict', () => c.call('update_task', { id: 'API-4', title: 'x' })],
      ['STATUS_IN_USE', 'conflict', () => c.call('update_project', { key: 'API', statuses: [{ op: 'remove', name: 'in_progress' }] })],
      ['READ_ONLY', 'forbidden', () => ro.call('create_task', { project: 'API', title: 'x' })],
    ];
    try {
      for (const [code, kind, run] of triggers) {
        const e = await expectCode(run(), code);
        expect(e.kind, code).toBe(kind);
        expect(e.message, code).toMatch(/[.!?]$/);
        expect(e.suggestions.length, `${code} offers a next step`).toBeGreaterThan(0);
      }
    } finally {
      await other.close();
      await ro.close();
    }
  });

  it('every error serialises to {code, message, suggestions} for the adapters', async () => {
    const e = await expectCode(c.call('get_task', { id: 'API-99' }), 'TASK_NOT_FOUND');
    expect(e.kind).toBe('not_found');
    expect(JSON.parse(JSON.stringify(e))).toMatchObject({ code: 'TASK_NOT_FOUND', message: e.message, suggestions: e.suggestions });
  });
});

describe('gates and infrastructure errors', () => {
  it('READ_ONLY: a read-only context refuses writes before touching the store, reads still work', async () => {
    const ro = openCairn({ db: c.ws.db, readOnly: true });
    try {
      const before = await snapshot(c);
      const e = await expectCode(ro.call('create_task', { project: 'API', title: 'x' }), 'READ_ONLY');
      expect(e.kind).toBe('forbidden');
      await expectCode(ro.call('create_task', { bogus: 1 } as never), 'READ_ONLY');
      expect((await ro.call('get_task', { id: 'API-1' })).task.title).toBe('Add login');
      expect(await snapshot(c)).toEqual(before);
    } finally {
      await ro.close();
    }
  });

  // SQLite's single write lock (BEGIN IMMEDIATE on a second connection, a SqliteStore with a 10 ms busy
  // timeout); PostgreSQL writers lock rows and wait for each other instead.
  it.skipIf(onPostgres)('BUSY: a writer that cannot get the lock reports BUSY and writes nothing', async () => {
    const holder = new Database(c.ws.db);
    const store = new SqliteStore(c.ws.db, { busyTimeoutMs: 10 });
    const blocked = openCairn({ store });
    try {
      const before = await snapshot(c);
      holder.exec('BEGIN IMMEDIATE');
      const e = await expectCode(blocked.call('create_task', { project: 'API', title: 'x' }), 'BUSY');
      expect(e.message).toMatch(/locked/);
      holder.exec('ROLLBACK');
      expect(await snapshot(c)).toEqual(before);
      expect((await blocked.call('create_task', { project: 'API', title: 'x' })).task.id).toBe('API-4');
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
      await blocked.close();
    }
  });

  it('INTERNAL: an unexpected failure is wrapped with its cause, not leaked raw', async () => {
    const failing = { ...c.store, read: () => Promise.reject(new Error('disk on fire')), location: 'x' } as unknown as Store;
    const broken = openCairn({ store: failing });
    const e = await expectCode(broken.call('list_projects', {}), 'INTERNAL');
    expect(e.message).toMatch(/disk on fire.*bug in Cairn/);
    expect(e.kind).toBe('internal');
  });
});
