/** Search finds what people type: substrings of titles and labels (3+ characters), ranked below whole-word matches, on both engines. */
import { afterEach, describe, expect, it } from 'vitest';
import { tempCairn } from '../helpers/workspace.js';

describe('substring search', () => {
  let c: ReturnType<typeof tempCairn>;
  afterEach(async () => c.done());

  const ids = async (query: string, more: Record<string, unknown> = {}) => (await c.call('search_tasks', { query, ...more })).results.map((r) => r.task.id);

  it('finds "auth" in OAuth, "Auth2" in OAuth2Flow and "darkmode" for "dark mode", below whole-word matches', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'APP', name: 'App' });
    await c.call('create_task', { project: 'APP', title: 'Add OAuth login' }); // APP-1
    await c.call('create_task', { project: 'APP', title: 'Refactor OAuth2Flow helper' }); // APP-2
    await c.call('create_task', { project: 'APP', title: 'Dark mode toggle' }); // APP-3
    await c.call('create_task', { project: 'APP', title: 'Auth middleware' }); // APP-4: the whole word
    await c.call('create_task', { project: 'APP', title: 'Tidy the build', labels: ['authz'] }); // APP-5: a label holds it
    await c.call('create_task', { project: 'APP', title: 'Unrelated chore', description: 'nothing about oauth in the title' }); // APP-6: a word match in the description

    // Whole-word matches first (ranked as before), then substring matches in task order.
    const auth = (await c.call('search_tasks', { query: 'auth' })).results;
    expect(auth.map((r) => r.task.id)).toEqual(['APP-4', 'APP-1', 'APP-2', 'APP-5']);
    expect(auth[0]!.rank).toBeLessThan(0);
    expect(auth.slice(1).every((r) => r.rank === 1)).toBe(true);
    expect(auth[1]).toMatchObject({ matchedFields: ['title'], excerpt: 'Add OAuth login' });
    expect(auth[3]).toMatchObject({ matchedFields: ['labels'] });
    expect((await c.call('search_tasks', { query: 'auth' })).total).toBe(4);

    expect(await ids('Auth2')).toEqual(['APP-2']);
    expect(await ids('oauth2flow')).toEqual(['APP-2']);
    expect(await ids('darkmode')).toEqual(['APP-3']);
    expect(await ids('dark-mode')).toEqual(['APP-3']);
    // "oauth" is a whole word of APP-1 and of APP-6's description: those rank first, APP-2 (OAuth2Flow) by substring after.
    expect(await ids('oauth')).toEqual(expect.arrayContaining(['APP-1', 'APP-6']));
    expect((await ids('oauth')).at(-1)).toBe('APP-2');
    // Under three characters nothing is matched as a substring.
    expect(await ids('au')).toEqual([]);
  });

  it('pages across the word and substring hits with no repeat and no gap, and counts both', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'PP', name: 'P' });
    for (let i = 0; i < 4; i++) await c.call('create_task', { project: 'PP', title: `Sync worker ${i}` });
    for (let i = 0; i < 5; i++) await c.call('create_task', { project: 'PP', title: `Resync pass ${i}` });
    const seen: string[] = [];
    let cursor: string | undefined;
    let total = -1;
    do {
      const page = await c.call('search_tasks', { query: 'sync', limit: 3, ...(cursor ? { cursor } : {}) });
      if (!cursor) expect(page.total).toBe(4);
      total = page.total;
      seen.push(...page.results.map((r) => r.task.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    // Once the word matches run out, the total counts the substring matches too (the first page's counted the 4 word matches).
    expect(total).toBe(9);
    expect(seen).toHaveLength(9);
    expect(new Set(seen).size).toBe(9);
    expect(seen.slice(0, 4).sort()).toEqual(['PP-1', 'PP-2', 'PP-3', 'PP-4']);
    expect(seen.slice(4)).toEqual(['PP-5', 'PP-6', 'PP-7', 'PP-8', 'PP-9']);
  });

  it('keeps the filters: project scope, finished and deleted tasks', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'AA', name: 'A' });
    await c.call('create_project', { key: 'BB', name: 'B' });
    await c.call('create_task', { project: 'AA', title: 'OAuth in A' });
    await c.call('create_task', { project: 'BB', title: 'OAuth in B' });
    await c.call('create_task', { project: 'AA', title: 'Old OAuth work' });
    await c.call('complete_task', { id: 'AA-2' });
    await c.call('create_task', { project: 'AA', title: 'Dropped OAuth idea' });
    await c.call('delete_task', { id: 'AA-3' });
    expect(await ids('auth', { project: 'AA' })).toEqual(['AA-1', 'AA-2']);
    expect(await ids('auth', { project: 'AA', includeDone: false })).toEqual(['AA-1']);
    expect((await ids('auth')).sort()).toEqual(['AA-1', 'AA-2', 'BB-1']);
    // A renamed task is found by its new title only.
    await c.call('update_task', { id: 'BB-1', title: 'Plain login' });
    expect(await ids('auth')).toEqual(['AA-1', 'AA-2']);
  });
});
