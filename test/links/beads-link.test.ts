/**
 * Beads' issues.jsonl linked in place, checked against its documented format (steveyegge/beads
 * internal/types: one issue per line; bd itself installs only from GitHub releases, unreachable
 * here): Cairn's writes land as bd writes issues, keeping keys it does not know, and lines bd or a
 * person writes show on the next call.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { FIXTURES, scratch, type Scratch } from './link-helpers.js';

let s: Scratch;
let cairn: Cairn;
afterEach(async () => {
  await cairn?.close();
  s?.cleanup();
});

const issues = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('beads link', () => {
  it('writes issues as bd does, keeps what Cairn does not hold, and reads the lines written outside', async () => {
    s = scratch('cairn-beads-link-');
    const file = join(s.dir, 'issues.jsonl');
    writeFileSync(
      file,
      readFileSync(join(FIXTURES, 'beads', '.beads', 'issues.jsonl'), 'utf8').replace(
        '"status":"open","priority":1,"issue_type":"epic"',
        '"status":"open","priority":1,"issue_type":"epic","estimated_minutes":90',
      ),
    );
    cairn = openCairn({ db: join(s.dir, 'cairn.db'), actor: 'agent' });
    expect((await cairn.call('link_source', { path: file, project: 'BD' })).link).toMatchObject({ kind: 'beads', records: 5, state: 'in sync' });
    const epic = (await cairn.call('get_task', { id: 'bd-1' })).task;
    await cairn.call('update_task', { id: epic.id, title: 'Ship the storage layer (v2)', priority: 'urgent' });
    const made = (await cairn.call('create_task', { project: 'BD', title: 'From Cairn', kind: 'bug', blockedBy: [(await cairn.call('get_task', { id: 'bd-2' })).task.id], parentId: epic.id })).task;
    await cairn.call('complete_task', { id: 'bd-4', closeReason: 'Fixed by the new lock order' });

    const lines = issues(file);
    expect(lines.find((i) => i.id === 'bd-1')).toMatchObject({ title: 'Ship the storage layer (v2)', priority: 0, issue_type: 'epic', estimated_minutes: 90 });
    expect(lines.at(-1)).toMatchObject({
      id: 'bd-6',
      title: 'From Cairn',
      status: 'open',
      priority: 4,
      issue_type: 'bug',
      dependencies: [
        { issue_id: 'bd-6', depends_on_id: 'bd-2', type: 'blocks' },
        { issue_id: 'bd-6', depends_on_id: 'bd-1', type: 'parent-child' },
      ],
    });
    const lock = lines.find((i) => i.id === 'bd-4')!;
    expect(lock).toMatchObject({ status: 'closed', close_reason: 'Fixed by the new lock order', closed_at: expect.any(String) });
    // bd-4's related and discovered-from links are Beads' own: kept as they were.
    expect(lock.dependencies.map((d: any) => d.type)).toEqual(['discovered-from', 'related']);

    // bd (or a person) changes a line and appends one.
    const edited = lines.map((i) => (i.id === 'bd-6' ? { ...i, status: 'in_progress', assignee: 'carol' } : i));
    edited.push({ id: 'bd-7', title: 'Written by bd', status: 'open', priority: 3, issue_type: 'task', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' });
    writeFileSync(file, edited.map((i) => `${JSON.stringify(i)}\n`).join(''));
    expect((await cairn.call('get_task', { id: made.id })).task).toMatchObject({ status: 'in_progress', assignee: 'carol' });
    expect((await cairn.call('get_task', { id: 'bd-7' })).task).toMatchObject({ title: 'Written by bd', priority: 'low' });

    // A deletion is a tombstone, as bd deletes, so bd's next import does not bring the issue back.
    await cairn.call('delete_task', { id: 'bd-7' });
    expect(issues(file).find((i) => i.id === 'bd-7')).toMatchObject({ status: 'tombstone', deleted_at: expect.any(String) });
  });
});
