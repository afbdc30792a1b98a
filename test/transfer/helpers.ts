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
