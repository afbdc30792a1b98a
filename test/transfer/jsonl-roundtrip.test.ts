/** cairn export (JSONL) and cairn import of it: lossless, byte-stable, idempotent, all-or-nothing, merging by internal id. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TASK_FIELD_NAMES, TASK_FIELDS, TASK_FIELDS_NOT_TRANSFERRED } from '../../src/core/services/export-fields.js';
import { exportText, freshWorkspaces, fullTasks, importInto, richWorkspace } from './helpers.js';

const fresh = freshWorkspaces();

describe('jsonl export and import', () => {
  it('exports the same bytes twice, sorted, one entity per line, without tokens', async () => {
    const a = fresh();
    await richWorkspace(a);
    const first = await exportText(a);
    expect(await exportText(a)).toBe(first);
    const lines = first
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { entity: string; key?: string; id?: string });
    expect(lines[0]).toEqual({ entity: 'cairn-export', format: 1 });
    expect(lines.filter((l) => l.entity === 'project').map((l) => l.key)).toEqual(['API', 'WEB']);
    expect(lines.filter((l) => l.entity === 'task').map((l) => l.id)).toEqual(['API-1', 'API-2', 'API-3', 'API-4', 'API-5', 'WEB-1']);
    await a.call('list_projects', {});
    expect(first).not.toMatch(/"scope"|"hash"|"prefix"/);
    // Archived tasks only when asked.
    expect(await exportText(a, {})).not.toContain('"Old chore"');
  });

  it('export → import into an empty workspace → export gives identical bytes; a second import changes nothing', async () => {
    const a = fresh();
    await richWorkspace(a);
    const text = await exportText(a);
    const file = join(a.ws.dir, 'export.jsonl');
    writeFileSync(file, text);
    const b = fresh();
    const report = await importInto(b, { path: file });
    expect(report.tasks).toEqual({ created: 6, updated: 0, unchanged: 0 });
    expect(await exportText(b)).toBe(text);
    const again = await importInto(b, { path: file });
    expect(again.tasks).toEqual({ created: 0, updated: 0, unchanged: 6 });
    expect(await exportText(b)).toBe(text);
    // The imported workspace works: the blocker relation, readiness and search.
    const t = (await b.call('get_task', { id: 'API-3' })).task;
    expect(t.blockedBy).toEqual(['API-2']);
    expect(t.claim?.actor).toBe('tester');
    expect((await b.call('search_tasks', { query: 'refresh' })).results.map((r) => r.task.id)).toEqual(['API-3']);
    expect((await b.call('get_task', { id: 'API-1' })).task.children).toEqual(['API-2']);
  });

  it('a task with every field set comes back from export → import as it was, but for the fields named as lost', async () => {
    const a = fresh();
    await fullTasks(a);
    const file = join(a.ws.dir, 'full.jsonl');
    writeFileSync(file, await exportText(a));
    const b = fresh();
    expect((await importInto(b, { path: file })).tasks).toEqual({ created: 6, updated: 0, unchanged: 0 });
    const lost = Object.entries(TASK_FIELDS_NOT_TRANSFERRED).flatMap(([k, v]) => (v.rebuilt ? [] : [k]));
    const dropped = TASK_FIELD_NAMES.flatMap((k) => TASK_FIELDS[k].carries.flatMap((c) => Object.keys(TASK_FIELDS[k].drops ?? {}).map((d) => [c, d] as const)));
    const kept = (t: Record<string, unknown>) => {
      const out = Object.fromEntries(Object.entries(t).filter(([k]) => !lost.includes(k)));
      for (const [c, d] of dropped) if (out[c] && typeof out[c] === 'object') out[c] = { ...(out[c] as object), [d]: undefined };
      return out;
    };
    for (let n = 1; n <= 6; n++) {
      const before = (await a.call('get_task', { id: `FULL-${n}` })).task;
      const after = (await b.call('get_task', { id: `FULL-${n}` })).task;
      expect(kept(after)).toEqual(kept(before));
      // A claim comes in as the importing workspace's first: fenced (generation 1) like any new claim.
      if (after.claim) expect(after.claim.generation).toBe(1);
    }
    const project = async (c: typeof a) => (await c.call('list_projects', {})).projects.find((p) => p.key === 'FULL');
    expect(await project(b)).toMatchObject({ requireEvidence: true, aliases: [], statuses: (await project(a))?.statuses });
    expect((await b.call('get_task', { id: 'FULL-3' })).task.evidence).toMatchObject({ commit: 'abc1234', test: { command: 'npm test', exitCode: 0 } });
    expect((await b.call('get_task', { id: 'FULL-4' })).task.checkpoint).toMatchObject({ summary: 'Half way', next: 'The other half' });
  });

  it("a change to one task changes only that task's lines", async () => {
    const a = fresh();
    await richWorkspace(a);
    const before = (await exportText(a)).split('\n');
    await a.call('update_task', { id: 'API-3', title: 'Token refresh v2' });
    const after = (await exportText(a)).split('\n');
    const removed = before.filter((l) => !after.includes(l));
    const added = after.filter((l) => !before.includes(l));
    expect(removed.map((l) => JSON.parse(l).id)).toEqual(['API-3']);
    expect(added.map((l) => JSON.parse(l).id ?? JSON.parse(l).task)).toEqual(['API-3', 'API-3']);
  });

  it('merges an export from another clone by internal id: newer versions win, new tasks come in, colliding keys are renumbered', async () => {
    const a = fresh();
    await richWorkspace(a);
    const file = join(a.ws.dir, 'base.jsonl');
    writeFileSync(file, await exportText(a));
    const b = fresh();
    await importInto(b, { path: file });
    // Both clones go on: A edits API-3 and adds API-6; B adds its own API-6.
    await a.call('update_task', { id: 'API-3', title: 'Edited in A' });
    await a.call('create_task', { project: 'API', title: 'New in A' });
    await b.call('create_task', { project: 'API', title: 'New in B' });
    writeFileSync(file, await exportText(a));
    const dry = await importInto(b, { path: file, dryRun: true });
    expect(dry.tasks).toEqual({ created: 1, updated: 1, unchanged: 5 });
    const report = await importInto(b, { path: file });
    expect(report.tasks).toEqual({ created: 1, updated: 1, unchanged: 5 });
    expect(report.renumbered).toEqual([{ from: 'API-6', to: 'API-7' }]);
    expect((await b.call('get_task', { id: 'API-3' })).task.title).toBe('Edited in A');
    expect((await b.call('get_task', { id: 'API-6' })).task.title).toBe('New in B');
    expect((await b.call('get_task', { id: 'API-7' })).task.title).toBe('New in A');
    const history = (await b.call('task_history', { id: 'API-7' })).events.map((e) => e.type);
    expect(history).toContain('task.renumbered');
    expect((await importInto(b, { path: file })).tasks).toEqual({ created: 0, updated: 0, unchanged: 7 });
  });

  it('a renumbered task in a workspace with tasks but no history keeps every restored event and numbers its own after them', async () => {
    const a = fresh();
    await richWorkspace(a);
    const text = await exportText(a);
    const file = join(a.ws.dir, 'full.jsonl');
    writeFileSync(file, text);
    // B has tasks (API-1..API-6) but no events: an export with its history left out was imported.
    const b = fresh();
    const noHistory = join(a.ws.dir, 'tasks-only.jsonl');
    writeFileSync(
      noHistory,
      text
        .split('\n')
        .filter((l) => l && JSON.parse(l).entity !== 'event')
        .join('\n') + '\n',
    );
    await importInto(b, { path: noHistory });
    // A fresh clone's export whose API keys collide with B's, with a history numbered from 1.
    const c = fresh();
    await c.call('create_project', { key: 'API', name: 'API server' });
    for (let i = 0; i < 3; i++) await c.call('create_task', { project: 'API', title: `From C ${i}` });
    await c.call('update_task', { id: 'API-1', title: 'From C 0, edited' });
    const fromC = join(a.ws.dir, 'c.jsonl');
    writeFileSync(fromC, await exportText(c));
    const cEvents = (await exportText(c)).split('\n').filter((l) => l && JSON.parse(l).entity === 'event').length;
    const report = await importInto(b, { path: fromC });
    expect(report.renumbered.map((r) => r.from)).toEqual(['API-1', 'API-2', 'API-3']);
    const events = (await exportText(b))
      .split('\n')
      .filter((l) => l && JSON.parse(l).entity === 'event')
      .map((l) => JSON.parse(l));
    const renumbers = events.filter((e) => e.type === 'task.renumbered');
    expect(renumbers).toHaveLength(3);
    // Every one of C's events arrived, beside the three renumbers, and no number is used twice.
    expect(events).toHaveLength(cEvents + 3);
    expect(new Set(events.map((e) => e.seq)).size).toBe(events.length);
    const titled = (await b.call('get_task', { id: report.renumbered[0]!.to })).task.title;
    expect(titled).toBe('From C 0, edited');
  });

  it('bad input names the file, line and field, and imports nothing', async () => {
    const a = fresh();
    await richWorkspace(a);
    const lines = (await exportText(a)).trimEnd().split('\n');
    const broken = lines.map((l, i) => (i === 4 ? l.replace(/"title":"[^"]*"/, '"title":42') : l));
    const file = join(a.ws.dir, 'bad.jsonl');
    writeFileSync(file, broken.join('\n') + '\n');
    const b = fresh();
    await b.call('create_project', { key: 'ZZ', name: 'Before' });
    await expect(importInto(b, { path: file })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { file, line: 5, field: 'title' } });
    expect((await b.call('list_projects', {})).projects.map((p) => p.key)).toEqual(['ZZ']);
    writeFileSync(file, lines.slice(0, 3).join('\n') + '\n{not json\n');
    await expect(importInto(b, { path: file })).rejects.toThrow(/bad\.jsonl:4: not valid JSON/);
  });
});
