/**
 * Invariants that must hold when several writers commit at once: on SQLite one writer runs at a
 * time, on PostgreSQL (the postgres leg runs this file too) the transactions truly overlap. Each
 * writer is its own Cairn, so on PostgreSQL its own connection pool, as replicas are.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { createToken } from '../../src/core/services/tokens.js';
import { systemClock } from '../../src/core/ports.js';
import { allEvents } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let writers: Cairn[];
beforeEach(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'API', name: 'API' });
  writers = Array.from({ length: 4 }, (_, i) => openCairn({ db: c.ws.db, actor: `agent:${i}` }));
});
afterEach(async () => {
  for (const w of writers) await w.close();
  await c.done();
});

const outcome = (r: PromiseSettledResult<unknown>) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { code: string }).code);

/** Whether the blocker graph (task → its blockers) has a cycle. */
async function hasCycle(cairn: Cairn, n: number): Promise<boolean> {
  const edges = new Map<string, string[]>();
  for (let i = 1; i <= n; i++) edges.set(`API-${i}`, (await cairn.call('get_task', { id: `API-${i}` })).task.blockedBy);
  const state = new Map<string, 'open' | 'done'>();
  const visit = (v: string): boolean => {
    if (state.get(v) === 'done') return false;
    if (state.get(v) === 'open') return true;
    state.set(v, 'open');
    const found = (edges.get(v) ?? []).some(visit);
    state.set(v, 'done');
    return found;
  };
  return [...edges.keys()].some(visit);
}

describe('concurrent writers', () => {
  it('task numbers: creates racing in one project get distinct, dense numbers', async () => {
    const made = await Promise.all(writers.flatMap((w, i) => Array.from({ length: 10 }, (_, j) => w.call('create_task', { project: 'API', title: `w${i} t${j}` }))));
    const numbers = made.map((m) => Number(m.task.id.split('-')[1])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('cycles: two edges on disjoint tasks that close a cycle only together are never both added', async () => {
    for (let i = 0; i < 4; i++) await c.call('create_task', { project: 'API', title: `n${i}` });
    // 1 → 2 and 3 → 4 exist; 2 → 3 and 4 → 1 touch no task in common, and close 1→2→3→4→1 together.
    await c.call('add_dependency', { taskId: 'API-1', blockedBy: 'API-2' });
    await c.call('add_dependency', { taskId: 'API-3', blockedBy: 'API-4' });
    for (let round = 0; round < 8; round++) {
      const results = await Promise.allSettled([
        writers[round % 4]!.call('add_dependency', { taskId: 'API-2', blockedBy: 'API-3' }),
        writers[(round + 1) % 4]!.call('add_dependency', { taskId: 'API-4', blockedBy: 'API-1' }),
      ]);
      expect(results.map(outcome).sort()).toEqual(['CYCLE_DETECTED', 'ok']);
      expect(await hasCycle(c, 4)).toBe(false);
      for (const [t, b] of [
        ['API-2', 'API-3'],
        ['API-4', 'API-1'],
      ] as const) {
        await c.call('remove_dependency', { taskId: t, blockedBy: b }).catch(() => undefined);
      }
    }
  });

  it('two-task cycle: opposite edges added at once, exactly one lands', async () => {
    await c.call('create_task', { project: 'API', title: 'a' });
    await c.call('create_task', { project: 'API', title: 'b' });
    const results = await Promise.allSettled([
      writers[0]!.call('add_dependency', { taskId: 'API-1', blockedBy: 'API-2' }),
      writers[1]!.call('add_dependency', { taskId: 'API-2', blockedBy: 'API-1' }),
    ]);
    expect(results.map(outcome).sort()).toEqual(['CYCLE_DETECTED', 'ok']);
    expect(await hasCycle(c, 2)).toBe(false);
  });

  it('project keys and aliases: racing creates of one key or alias, one wins, the rest PROJECT_EXISTS', async () => {
    const byKey = await Promise.allSettled(writers.map((w, i) => w.call('create_project', { key: 'WEB', name: `web ${i}` })));
    expect(byKey.map(outcome).sort()).toEqual(['PROJECT_EXISTS', 'PROJECT_EXISTS', 'PROJECT_EXISTS', 'ok']);
    const keys = ['AAA', 'BBB', 'CCC', 'DDD'];
    const byAlias = await Promise.allSettled(writers.map((w, i) => w.call('create_project', { key: keys[i]!, name: keys[i]!, aliases: ['frontend'] })));
    expect(byAlias.map(outcome).sort()).toEqual(['PROJECT_EXISTS', 'PROJECT_EXISTS', 'PROJECT_EXISTS', 'ok']);
    const projects = (await c.call('list_projects', {})).projects;
    expect(projects.filter((p) => p.aliases.includes('frontend'))).toHaveLength(1);
  });

  it('token names: racing creates of one live name, one wins, the rest TOKEN_EXISTS', async () => {
    const ctxs = writers.map((w) => ({ store: w.store, clock: systemClock, actor: 'admin' }));
    const results = await Promise.allSettled(ctxs.map((ctx) => createToken(ctx, { name: 'ci', scope: 'write' })));
    expect(results.map(outcome).sort()).toEqual(['TOKEN_EXISTS', 'TOKEN_EXISTS', 'TOKEN_EXISTS', 'ok']);
  });

  it('the change feed: a reader following along while writers commit sees every event once, numbered without gaps', async () => {
    const seen: number[] = [];
    let since = (await c.call('changes_since', { since: 0, limit: 1000 })).lastSeq;
    const start = since;
    let writing = true;
    const reader = (async () => {
      for (;;) {
        // Read before the call: a page read while the last write commits may not hold it yet.
        const finished = !writing;
        const page = await c.call('changes_since', { since, limit: 200 });
        seen.push(...page.events.map((e) => e.seq));
        since = page.lastSeq;
        if (finished && !page.hasMore && page.events.length === 0) return;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await Promise.all(
      writers.map(async (w, i) => {
        for (let j = 0; j < 15; j++) {
          const t = await w.call('create_task', { project: 'API', title: `w${i} ${j}` });
          await w.call('update_task', { id: t.task.id, title: `w${i} ${j} renamed` });
        }
      }),
    );
    writing = false;
    await reader;
    const all = (await allEvents(c)).map((e) => e.seq).filter((s) => s > start);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => start + 1 + i));
    expect(all.length).toBe(4 * 15 * 2);
    expect(seen).toEqual(all);
  });
});
