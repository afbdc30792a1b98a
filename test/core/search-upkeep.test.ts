/**
 * Search index upkeep (store/sqlite/search-upkeep.ts): FTS5 leaves a segment per write; a quiet
 * writing server and a closing writer merge them, and search answers exactly as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/sqlite/native.js';
import { START_AFTER } from '../../src/store/sqlite/checkpointer.js';
import { integrityCheck } from '../helpers/core.js';
import { waitFor } from '../helpers/wait.js';
import { sqliteOf, tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

/** Segments of the search index, read by a separate connection. */
function segments(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM (SELECT DISTINCT segid FROM task_search_idx)').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** FTS5's own check of the index against its content ('ok' or the error). */
function ftsCheck(file: string): string {
  const db = new Database(file);
  try {
    db.prepare("INSERT INTO task_search (task_search) VALUES ('integrity-check')").run();
    return 'ok';
  } catch (err) {
    return String(err);
  } finally {
    db.close();
  }
}

const WORDS = ['okapi', 'quokka', 'narwhal', 'axolotl', 'pangolin', 'tapir'];
const QUERIES = ['okapi', 'quokka narwhal', 'pango*', '"pangolin tapir"', 'task'];

async function fill(cc: NonNullable<typeof c>, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i++) {
    const w = (k: number) => WORDS[(i * 7 + k) % WORDS.length]!;
    await cc.call('create_task', { project: 'UP', title: `${w(0)} task ${i}`, description: `${w(1)} ${w(2)} ${w(3)}`, labels: [w(4)] });
  }
}

const answers = async (cc: NonNullable<typeof c>) =>
  Promise.all(QUERIES.map(async (query) => (await cc.call('search_tasks', { query, limit: 100 })).results.map((r) => `${r.task.id}:${r.matchedFields.join('+')}`)));

describe('search index upkeep', () => {
  it('merges the segments writes left, with the same answers and a sound index', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'UP', name: 'Upkeep' });
    await fill(c, 40);
    // One segment per committed write, merged only 16 at a time: many are left.
    expect(segments(c.ws.db)).toBeGreaterThan(6);
    const expected = await answers(c);
    expect(expected.every((a) => a.length > 0)).toBe(true);

    expect(sqliteOf(c.store).tidySearchIndex()).toBe(true);
    expect(segments(c.ws.db)).toBeLessThanOrEqual(3);
    expect(ftsCheck(c.ws.db)).toBe('ok');
    expect(await answers(c)).toEqual(expected);
    // Done means done: another pass finds nothing to merge at once.
    expect(sqliteOf(c.store).tidySearchIndex(1)).toBe(true);
  });

  it('a server that wrote merges once it has been quiet, and yields to writes that come meanwhile', async () => {
    c = tempCairn();
    const store = sqliteOf(c.store);
    await c.call('create_project', { key: 'UP', name: 'Upkeep' });
    await fill(c, START_AFTER + 30);
    const checkpointer = store.checkpointer()!;
    expect(checkpointer.running).toBe(true);
    // Merged once the calls pause (a pause during the fill may already have merged part of it). The
    // worker counts a finished merge just after its last step commits: wait for both, however long
    // the worker thread takes to be scheduled.
    await waitFor(() => segments(c!.ws.db) <= 3 && checkpointer.tidied > 0, 'the index merged by the worker', 50_000, 50);
    expect(segments(c.ws.db)).toBeLessThanOrEqual(3);
    expect(checkpointer.tidied).toBeGreaterThan(0);
    // Writes keep coming while the worker may be merging: none is lost, none fails.
    await fill(c, 40, 1000);
    const db = new Database(c.ws.db, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM tasks WHERE project_uid = (SELECT uid FROM projects WHERE key = 'UP')").pluck().get()).toBe(START_AFTER + 70);
    db.close();
    expect((await c.call('search_tasks', { query: 'task', limit: 1 })).total).toBe(START_AFTER + 70);
    expect(ftsCheck(c.ws.db)).toBe('ok');
  });

  it('a short-lived writer (a CLI command) leaves the index merged as it closes', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'UP', name: 'Upkeep' });
    await fill(c, 30);
    expect(sqliteOf(c.store).checkpointer()!.running).toBe(false);
    const file = c.ws.db;
    expect(segments(file)).toBeGreaterThan(6);
    await c.close();
    expect(segments(file)).toBeLessThanOrEqual(3);
    expect(ftsCheck(file)).toBe('ok');
    expect(await integrityCheck(file)).toBe('ok');
  });
});
