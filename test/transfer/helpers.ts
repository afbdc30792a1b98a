/** Shared by the export/import tests: a workspace with every kind of data, and export to a string. */
import { systemClock } from '../../src/core/ports.js';
import type { Context } from '../../src/core/context.js';
import { exportJsonl, type ExportOptions } from '../../src/core/services/export.js';
import { runImport, type ImportOptions } from '../../src/core/services/import/index.js';
import type { Cairn } from '../../src/index.js';
import { afterEach } from 'vitest';
import { tempCairn } from '../helpers/workspace.js';

export const ctxOf = (cairn: Cairn, actor = 'tester'): Context => ({ store: cairn.store, clock: systemClock, actor });

export async function exportText(cairn: Cairn, opts: ExportOptions = { includeArchived: true }): Promise<string> {
  let out = '';
  await exportJsonl(ctxOf(cairn), opts, (chunk) => {
    out += chunk;
  });
  return out;
}

export const importInto = (cairn: Cairn, opts: ImportOptions) => runImport(ctxOf(cairn), opts);

/** A maker of fresh workspaces for one test file; each is closed and deleted after its test. */
export function freshWorkspaces(): () => ReturnType<typeof tempCairn> {
  const open: Array<{ done(): Promise<void> }> = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.done();
  });
  return () => {
    const c = tempCairn();
    open.push(c);
    return c;
  };
}

/** Two projects, a workflow edit, dependencies, a parent, checklist, comments, links, anchors, a claim, completion, archive, delete. */
export async function richWorkspace(cairn: Cairn): Promise<void> {
  await cairn.call('create_project', { key: 'API', name: 'API server', description: 'The backend', aliases: ['api-server'] });
  await cairn.call('create_project', { key: 'WEB', name: 'Web', template: 'devplanner' });
  const epic = (await cairn.call('create_task', { project: 'API', title: 'Auth epic', kind: 'epic', priority: 'high' })).task;
  const a = (
    await cairn.call('create_task', {
      project: 'API',
      title: 'Login form',
      parentId: epic.id,
      labels: ['ui', 'auth'],
      checklist: ['Fields', 'Submit'],
      anchors: ['src/login.ts'],
      links: { branch: 'feat/login', prNumber: 12, prState: 'open' },
    })
  ).task;
  const b = (await cairn.call('create_task', { project: 'API', title: 'Token refresh', blockedBy: [a.id], description: 'Refresh **tokens**\n\nwith care "quoted"', score: 2.5 })).task;
  await cairn.call('update_checklist', { id: a.id, ops: [{ op: 'check', index: 0 }] });
  await cairn.call('add_comment', { id: a.id, body: 'Looks good\nsecond line' });
  await cairn.call('add_comment', { id: b.id, body: 'Research notes', kind: 'research' });
  await cairn.call('complete_task', { id: a.id, closeReason: 'fixed' });
  await cairn.call('claim_task', { id: b.id });
  const c = (await cairn.call('create_task', { project: 'API', title: 'Old chore', kind: 'chore' })).task;
  await cairn.call('complete_task', { id: c.id });
  await cairn.call('archive_task', { id: c.id });
  const d = (await cairn.call('create_task', { project: 'API', title: 'Mistake' })).task;
  await cairn.call('delete_task', { id: d.id });
  await cairn.call('create_task', { project: 'WEB', title: 'Card one', slug: 'card-one', substatus: 'blocked', status: '02-in-progress' });
  await cairn.call('update_project', { key: 'API', statuses: [{ op: 'add', name: 'qa', category: 'in_progress', displayName: 'QA' }] });
}

/**
 * A project whose tasks between them set every transferable field to something other than a new
 * task's value (FULL-1 is that bare task, to compare with): FULL-4 alone sets all that an open,
 * claimed task can; FULL-3, 5 and 6 are done, archived and deleted.
 */
export async function fullTasks(cairn: Cairn): Promise<void> {
  await cairn.call('create_project', { key: 'FULL', name: 'Every field' });
  await cairn.call('update_project', { key: 'FULL', statuses: [{ op: 'add', name: 'qa', category: 'in_progress', displayName: 'QA' }] });
  await cairn.call('create_task', { project: 'FULL', title: 'Bare' });
  const parent = (await cairn.call('create_task', { project: 'FULL', title: 'Parent', kind: 'epic' })).task;
  // Done before FULL-4 names it as its blocker, so FULL-4 can be claimed.
  const done = (await cairn.call('create_task', { project: 'FULL', title: 'Done' })).task;
  await cairn.call('complete_task', { id: done.id, closeReason: 'fixed', evidence: { commit: 'abc1234', test: { command: 'npm test', exitCode: 0 } } });
  const t = (
    await cairn.call('create_task', {
      project: 'FULL',
      title: 'Every field',
      description: 'Body **text**\n\nwith "quotes"',
      status: 'qa',
      kind: 'bug',
      priority: 'urgent',
      score: 7.5,
      labels: ['one', 'two'],
      assignee: 'agent:claude-1',
      substatus: 'review',
      slug: 'every-field',
      parentId: parent.id,
      blockedBy: [done.id],
      checklist: ['First', 'Second\nline'],
      anchors: ['src/a.ts'],
      touches: ['src/a/**'],
      links: { branch: 'feat/x', worktree: '/tmp/wt', prUrl: 'https://github.com/acme/api/pull/12', prNumber: 12, prState: 'draft', issue: 'acme/api#42' },
      origin: 'handoff from OTHER',
      documentPath: '/tmp/FULL-4.md',
    })
  ).task;
  await cairn.call('update_task', { id: t.id, position: 3 });
  await cairn.call('update_checklist', { id: t.id, ops: [{ op: 'check', index: 1 }] });
  await cairn.call('add_comment', { id: t.id, body: 'A note', kind: 'research' });
  await cairn.call('claim_task', { id: t.id });
  await cairn.call('checkpoint_task', { id: t.id, summary: 'Half way', next: 'The other half', head: 'abcdef1', changedFiles: ['src/a.ts'], questions: ['Why?'] });
  const archived = (await cairn.call('create_task', { project: 'FULL', title: 'Archived' })).task;
  await cairn.call('complete_task', { id: archived.id });
  await cairn.call('archive_task', { id: archived.id });
  const deleted = (await cairn.call('create_task', { project: 'FULL', title: 'Deleted' })).task;
  await cairn.call('delete_task', { id: deleted.id });
  await cairn.call('update_project', { key: 'FULL', requireEvidence: true });
}
