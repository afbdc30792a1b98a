/**
 * Several processes, one database file, through the BUILT library (dist/; `npm test` builds first).
 * 4 writers × 500 creates lose nothing and never surface BUSY; 8 claimers racing for one task give one winner.
 */
import { Database } from '../../src/store/sqlite/native.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allEvents, allTasks, integrityCheck } from '../helpers/core.js';
import { runTogether } from '../helpers/children.js';
import { tempCairn } from '../helpers/workspace.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run `npm run build` first (npm test does).');
});

describe('multi-process', () => {
  it('4 processes × 500 writes into one file: nothing lost, no BUSY, consistent ids and events', async () => {
    c = tempCairn({ actor: 'parent' });
    await c.call('create_project', { key: 'MP', name: 'Multi-process' });
    const WORKERS = 4;
    const WRITES = 500;
    const results = await runTogether<{ worker: string; ids: string[]; errors: string[] }>(
      fixture('writer.mjs'),
      Array.from({ length: WORKERS }, (_, w) => [c!.ws.db, String(w), String(WRITES)]),
    );
    for (const r of results) {
      expect(r.result.errors, r.stderr).toEqual([]);
      expect(r.code).toBe(0);
      expect(r.result.ids).toHaveLength(WRITES);
    }
    const reported = results.flatMap((r) => r.result.ids);
    expect(new Set(reported).size).toBe(WORKERS * WRITES);

    const tasks = await allTasks(c);
    expect(tasks).toHaveLength(WORKERS * WRITES);
    expect(tasks.map((t) => t.id).sort()).toEqual([...reported].sort());
    // display numbers are dense: 1..2000, none skipped, none twice
    expect(tasks.map((t) => Number(t.id.split('-')[1])).sort((a, b) => a - b)).toEqual(Array.from({ length: WORKERS * WRITES }, (_, i) => i + 1));
    for (let w = 0; w < WORKERS; w++) {
      expect((await c.call('list_tasks', { labels: [`w${w}`], limit: 1 })).total).toBe(WRITES);
    }
    const events = await allEvents(c);
    expect(events.filter((e) => e.type === 'task.created')).toHaveLength(WORKERS * WRITES);
    expect(events).toHaveLength(WORKERS * WRITES + 1);
    expect(new Set(events.map((e) => e.actor))).toEqual(new Set(['parent', 'writer-0', 'writer-1', 'writer-2', 'writer-3']));
    expect((await c.call('search_tasks', { query: 'w3', limit: 1 })).total).toBe(WRITES);

    const raw = new Database(c.ws.db, { readonly: true });
    expect(raw.prepare('SELECT next_seq FROM projects WHERE key = ?').pluck().get('MP')).toBe(WORKERS * WRITES + 1);
    raw.close();
    expect(await integrityCheck(c.ws.db)).toBe('ok');
  });

  it('4 processes starting on a workspace that does not exist yet: one creates and migrates it, all write', async () => {
    c = tempCairn({ actor: 'parent' });
    const results = await runTogether<{ ids: string[]; errors: string[] }>(
      fixture('writer.mjs'),
      Array.from({ length: 4 }, (_, w) => [c!.ws.db, String(w), '25', 'init']),
    );
    for (const r of results) expect(r.result.errors, r.stderr).toEqual([]);
    expect((await allTasks(c)).length).toBe(100);
    expect((await c.call('list_projects', {})).projects.map((p) => p.key)).toEqual(['MP']);
    expect(await integrityCheck(c.ws.db)).toBe('ok');
  });

  it('8 processes racing to claim one task: exactly one winner, the rest get ALREADY_CLAIMED naming it', async () => {
    c = tempCairn({ actor: 'parent' });
    await c.call('create_project', { key: 'MP', name: 'Multi-process' });
    const { task } = await c.call('create_task', { project: 'MP', title: 'the prize' });
    const results = await runTogether<{ actor: string; ok: boolean; code?: string; details?: { holder: string; expiresAt: string } }>(
      fixture('claimer.mjs'),
      Array.from({ length: 8 }, (_, i) => [c!.ws.db, `agent:${i}`, task.id]),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const winners = results.filter((r) => r.result.ok);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.result.actor;
    const losers = results.filter((r) => !r.result.ok);
    expect(losers).toHaveLength(7);
    for (const l of losers) {
      expect(l.result.code).toBe('ALREADY_CLAIMED');
      expect(l.result.details?.holder).toBe(winner);
    }
    const got = (await c.call('get_task', { id: task.id })).task;
    expect(got).toMatchObject({ assignee: winner, status: 'in_progress', claim: { actor: winner }, version: 2 });
    const history = (await c.call('task_history', { id: task.id })).events.map((e) => e.type);
    expect(history).toEqual(['task.created', 'task.claimed']);
    expect(await integrityCheck(c.ws.db)).toBe('ok');
  });
});
