import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCairn } from '../helpers/workspace.js';
import { onPostgres } from '../helpers/engine.js';
import { openRaw } from '../helpers/raw-db.js';

let c: ReturnType<typeof tempCairn>;

beforeAll(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'API', name: 'API' });
  await c.call('create_project', { key: 'WEB', name: 'Web' });
  // one task per field where "zebra" appears
  await c.call('create_task', { project: 'API', title: 'Zebra crossing', description: 'nothing here' }); // API-1 title
  await c.call('create_task', { project: 'API', title: 'Labelled', labels: ['zebra'] }); // API-2 labels
  await c.call('create_task', { project: 'API', title: 'Described', description: 'a long text where a zebra walks by' }); // API-3 description
  await c.call('create_task', { project: 'API', title: 'Commented' }); // API-4 comments
  await c.call('add_comment', { id: 'API-4', body: 'I saw a zebra' });
  await c.call('create_task', { project: 'API', title: 'Checklisted', checklist: ['feed the zebra'] }); // API-5 checklist
  await c.call('create_task', { project: 'WEB', title: 'Authentication flow', kind: 'bug', priority: 'high', labels: ['auth'] }); // WEB-1
  await c.call('create_task', { project: 'API', title: 'Authorize tokens', description: 'OAuth scopes' }); // API-6
  await c.call('create_task', { project: 'API', title: 'Finished auth work' }); // API-7
  await c.call('complete_task', { id: 'API-7' });
  await c.call('create_task', { project: 'API', title: 'Crème brûlée recipe' }); // API-8
});
afterAll(async () => c.done());

const hits = async (query: string, extra: Record<string, unknown> = {}) => (await c.call('search_tasks', { query, ...extra } as never)).results;

describe('search_tasks', () => {
  it('ranks title > labels > description > comments/checklist, and says which fields matched', async () => {
    const r = await hits('zebra');
    expect(r.map((h) => h.task.id).slice(0, 3)).toEqual(['API-1', 'API-2', 'API-3']);
    expect(
      r
        .map((h) => h.task.id)
        .slice(3)
        .sort(),
    ).toEqual(['API-4', 'API-5']);
    expect(Object.fromEntries(r.map((h) => [h.task.id, h.matchedFields]))).toEqual({
      'API-1': ['title'],
      'API-2': ['labels'],
      'API-3': ['description'],
      'API-4': ['comments'],
      'API-5': ['checklist'],
    });
    for (let i = 1; i < r.length; i++) expect(r[i]!.rank).toBeGreaterThanOrEqual(r[i - 1]!.rank);
  });

  it('excerpts highlight the match with **…**', async () => {
    const r = await hits('zebra');
    for (const h of r) expect(h.excerpt.toLowerCase()).toContain('**zebra**');
    expect(r.find((h) => h.task.id === 'API-3')!.excerpt).toContain('where a **zebra** walks');
  });

  it('prefix queries work (auth*), plain words do not match prefixes (a title holding them is a substring hit, ranked after)', async () => {
    expect((await hits('auth*')).map((h) => h.task.id).sort()).toEqual(['API-6', 'API-7', 'WEB-1']);
    const auth = await hits('auth');
    expect(
      auth
        .filter((h) => h.rank < 0)
        .map((h) => h.task.id)
        .sort(),
    ).toEqual(['API-7', 'WEB-1']);
    expect(auth.slice(2).map((h) => [h.task.id, h.rank])).toEqual([['API-6', 1]]);
    const prefixed = (await hits('authen*'))[0]!;
    expect(prefixed).toMatchObject({ task: { id: 'WEB-1' }, matchedFields: ['title'] });
    expect(prefixed.excerpt).toContain('**Authentication**');
    expect(await hits('"crossing zebra"')).toEqual([]);
    expect((await hits('"zebra crossing"')).map((h) => h.task.id)).toEqual(['API-1']);
  });

  it('is diacritic- and case-insensitive', async () => {
    expect((await hits('CREME BRULEE')).map((h) => h.task.id)).toEqual(['API-8']);
  });

  it('filters combine with the query: project, kind, labels, status, includeDone', async () => {
    expect((await hits('auth*', { project: 'WEB' })).map((h) => h.task.id)).toEqual(['WEB-1']);
    expect((await hits('auth*', { kind: 'bug' })).map((h) => h.task.id)).toEqual(['WEB-1']);
    expect((await hits('auth*', { labels: ['auth'] })).map((h) => h.task.id)).toEqual(['WEB-1']);
    expect((await hits('auth*', { includeDone: false })).map((h) => h.task.id).sort()).toEqual(['API-6', 'WEB-1']);
    expect((await hits('auth*', { project: 'API', status: 'done' })).map((h) => h.task.id)).toEqual(['API-7']);
  });

  it('follows edits: new titles are found, old words are not; deleted tasks leave results', async () => {
    await c.call('create_task', { project: 'API', title: 'Walrus task' });
    const id = (await hits('walrus'))[0]!.task.id;
    await c.call('update_task', { id, title: 'Narwhal task' });
    expect(await hits('walrus')).toEqual([]);
    expect((await hits('narwhal')).map((h) => h.task.id)).toEqual([id]);
    await c.call('update_task', { id, addLabels: ['oceanic'] });
    expect((await hits('oceanic'))[0]!.matchedFields).toEqual(['labels']);
    await c.call('delete_task', { id });
    expect(await hits('narwhal')).toEqual([]);
    await c.call('restore_task', { id });
    expect((await hits('narwhal')).map((h) => h.task.id)).toEqual([id]);
  });

  it('archived tasks: hidden by default, found with includeArchived (fields and excerpt too), edits while archived follow them back', async () => {
    const d = tempCairn();
    try {
      await d.call('create_project', { key: 'API', name: 'API' });
      await d.call('create_task', { project: 'API', title: 'Okapi stays', priority: 'low' });
      await d.call('create_task', { project: 'API', title: 'Okapi leaves', description: 'the okapi herd' });
      await d.call('archive_task', { id: 'API-2' });
      const ids = async (q: string, extra: Record<string, unknown> = {}) => (await d.call('search_tasks', { query: q, ...extra } as never)).results.map((h) => h.task.id);
      expect(await ids('okapi')).toEqual(['API-1']);
      expect((await d.call('search_tasks', { query: 'okapi' })).total).toBe(1);
      const wide = await d.call('search_tasks', { query: 'okapi', includeArchived: true });
      expect(wide.results.map((h) => h.task.id).sort()).toEqual(['API-1', 'API-2']);
      expect(wide.total).toBe(2);
      const archived = wide.results.find((h) => h.task.id === 'API-2')!;
      expect(archived.matchedFields).toEqual(['title', 'description']);
      expect(archived.excerpt.toLowerCase()).toContain('**okapi**');
      // Filtered search (rows needed) sees the same.
      expect(await ids('okapi', { project: 'API', includeArchived: true })).toHaveLength(2);
      expect(await ids('okapi', { project: 'API' })).toEqual(['API-1']);
      // Edited while archived: the new words are found only with includeArchived, and only once.
      await d.call('update_task', { id: 'API-2', title: 'Quagga leaves', addLabels: ['striped'] });
      expect(await ids('quagga')).toEqual([]);
      expect(await ids('quagga', { includeArchived: true })).toEqual(['API-2']);
      expect((await ids('okapi', { includeArchived: true })).sort()).toEqual(['API-1', 'API-2']);
      await d.call('archive_task', { id: 'API-2', restore: true });
      expect(await ids('quagga')).toEqual(['API-2']);
      expect(await ids('striped')).toEqual(['API-2']);
      expect(await ids('quagga', { includeArchived: true })).toEqual(['API-2']);
      // Archived then deleted then restored: one row, visible again only when neither holds.
      await d.call('archive_task', { id: 'API-2' });
      await d.call('delete_task', { id: 'API-2' });
      expect(await ids('quagga', { includeArchived: true })).toEqual([]);
      await d.call('restore_task', { id: 'API-2' });
      expect(await ids('quagga', { includeArchived: true })).toEqual(['API-2']);
      await d.call('archive_task', { id: 'API-2', restore: true });
      expect(await ids('quagga')).toEqual(['API-2']);
      // Purged while hidden: gone from the index at either sign.
      await d.call('delete_task', { id: 'API-2' });
      await d.call('purge_task', { id: 'API-2', confirm: true });
      const raw = await openRaw(d.ws.db, { readonly: true });
      try {
        // The index row's number is the task's: FTS5's rowid on SQLite, the num column on PostgreSQL.
        const rows = await raw.all(onPostgres ? 'SELECT num AS rowid FROM task_search ORDER BY num' : 'SELECT rowid FROM task_search ORDER BY rowid');
        expect(rows).toEqual([{ rowid: 1 }]);
      } finally {
        await raw.close();
      }
    } finally {
      await d.done();
    }
  });

  it('pages to the end when an index row has lost its task (outside damage): each live task once, no endless cursor', async () => {
    const d = tempCairn();
    try {
      await d.call('create_project', { key: 'API', name: 'API' });
      for (let i = 1; i <= 5; i++) await d.call('create_task', { project: 'API', title: `zebra ${i}` });
      const raw = await openRaw(d.ws.db);
      try {
        // Behind the store's back (SQLite: with the foreign keys off; PostgreSQL's cascade to the edge tables), leaving the index rows.
        if (!onPostgres) await raw.run('PRAGMA foreign_keys = OFF');
        expect((await raw.run('DELETE FROM tasks WHERE seq IN (2, 5)')).changes).toBe(2);
        expect(await raw.value('SELECT count(*) FROM task_search')).toBe(5);
      } finally {
        await raw.close();
      }
      const seen: string[] = [];
      let cursor: string | null | undefined;
      for (let page = 0; page < 10; page++) {
        const r = await d.call('search_tasks', { query: 'zebra', limit: 2, ...(cursor ? { cursor } : {}) });
        seen.push(...r.results.map((x) => x.task.id));
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      expect(cursor).toBeNull();
      expect(seen.sort()).toEqual(['API-1', 'API-3', 'API-4']);
    } finally {
      await d.done();
    }
  });

  it('with a filter most matches fail, pages give the filtered matches in the order one big page has', async () => {
    const d = tempCairn();
    try {
      await d.call('create_project', { key: 'API', name: 'API' });
      await d.call('create_project', { key: 'WEB', name: 'Web' });
      // Ranks differ (title, description, repeated words) and tie; one task in three is WEB's.
      for (let i = 0; i < 30; i++) {
        const where = i % 3 === 0 ? { title: `heron ${i}` } : i % 3 === 1 ? { title: `task ${i}`, description: `a heron ${'heron '.repeat(i % 4)}` } : { title: `item ${i}`, labels: ['heron'] };
        await d.call('create_task', { project: i % 3 === 2 ? 'WEB' : 'API', ...where });
      }
      await d.call('delete_task', { id: 'API-4' });
      const all = (await d.call('search_tasks', { query: 'heron', project: 'API', limit: 100 })).results.map((r) => r.task.id);
      expect(all).toHaveLength(19);
      expect(all).not.toContain('API-4');
      const paged: string[] = [];
      let cursor: string | null | undefined;
      do {
        const r = await d.call('search_tasks', { query: 'heron', project: 'API', limit: 3, ...(cursor ? { cursor } : {}) });
        expect(r.total).toBe(19);
        paged.push(...r.results.map((x) => x.task.id));
        cursor = r.nextCursor;
      } while (cursor);
      expect(paged).toEqual(all);
    } finally {
      await d.done();
    }
  });

  it('pages with a cursor bound to the query', async () => {
    const first = await c.call('search_tasks', { query: 'zebra', limit: 2 });
    expect(first.total).toBe(5);
    const seen = first.results.map((r) => r.task.id);
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await c.call('search_tasks', { query: 'zebra', limit: 2, cursor });
      seen.push(...next.results.map((r) => r.task.id));
      cursor = next.nextCursor;
    }
    expect(seen.sort()).toEqual(['API-1', 'API-2', 'API-3', 'API-4', 'API-5']);
    await expect(c.call('search_tasks', { query: 'auth', limit: 2, cursor: first.nextCursor! })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('queries full of FTS syntax never error', async () => {
    const nasty = [
      '"foo AND (bar* OR -baz) NEAR/3 ^',
      'AND',
      'OR NOT',
      '*',
      '"',
      '""',
      '(',
      ')',
      'NEAR(a b)',
      '^zebra',
      'title:zebra',
      'zebra:',
      '-zebra',
      '+zebra',
      'a*b*c',
      '***',
      '{title}: x',
      "'; DROP TABLE tasks; --",
      '\u0000',
      '___',
      'API-1',
      'é*',
      '🦓',
      'zebra"',
      '"zebra',
    ];
    for (const q of nasty) {
      const r = await c.call('search_tasks', { query: q });
      expect(Array.isArray(r.results), q).toBe(true);
    }
    expect((await hits('^zebra')).length).toBe(5);
  });
});
