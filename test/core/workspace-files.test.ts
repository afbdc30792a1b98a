/** Files that are not (or no longer) a healthy Cairn workspace: refused untouched, or named by what went wrong (issue 22, items 3 and 4). */
import { Database } from '../../src/store/sqlite/native.js';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnError, openCairn } from '../../src/index.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { CAIRN_APPLICATION_ID, isCairnFile, openSqliteFile } from '../../src/store/sqlite/open.js';
import { expectCode } from '../helpers/core.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';

let ws: TempWorkspace;
afterEach(() => ws?.cleanup());

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const siblings = (file: string) => readdirSync(dirname(file)).sort();

function appIdOf(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('application_id', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** Opening must fail with `code` before anything is read or written; returns the error. */
function openFails(file: string, code: string): CairnError {
  let caught: unknown;
  try {
    const c = openCairn({ db: file });
    void c.close();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(CairnError);
  const e = caught as CairnError;
  expect(e.code, e.message).toBe(code);
  expect(e.message).not.toMatch(/bug in Cairn/);
  expect(e.suggestions.length).toBeGreaterThan(0);
  return e;
}

/** Another application's SQLite file: its own tables (one of them named tasks), a user_version, no Cairn mark. */
function foreignDatabase(file: string, opts: { userVersion?: number; applicationId?: number } = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.exec("CREATE TABLE tasks (id INTEGER PRIMARY KEY, what TEXT); INSERT INTO tasks (what) VALUES ('water plants')");
  db.exec('CREATE TABLE settings (k TEXT, v TEXT)');
  if (opts.userVersion) db.pragma(`user_version = ${opts.userVersion}`);
  if (opts.applicationId) db.pragma(`application_id = ${opts.applicationId}`);
  db.close();
}

/** A workspace with a few tasks, closed; returns its path. */
async function filledWorkspace(): Promise<string> {
  ws = tempWorkspace();
  const c = openCairn({ db: ws.db });
  await c.call('create_project', { key: 'API', name: 'API' });
  for (let i = 0; i < 200; i++) await c.call('create_task', { project: 'API', title: `task ${i}`, description: 'x'.repeat(300) });
  await c.close();
  return ws.db;
}

describe("a file that isn't Cairn's is never touched", () => {
  it('a new workspace carries the Cairn mark (PRAGMA application_id)', async () => {
    ws = tempWorkspace();
    const c = openCairn({ db: ws.db });
    await c.call('create_project', { key: 'API', name: 'API' });
    await c.close();
    expect(appIdOf(ws.db)).toBe(CAIRN_APPLICATION_ID);
  });

  for (const [what, opts] of [
    ['with a user_version and a tasks table', { userVersion: 3 }],
    ['without a user_version', {}],
    ['with another application_id', { userVersion: 14, applicationId: 0x1234 }],
  ] as const) {
    it(`another application's database ${what}: NOT_A_WORKSPACE, byte for byte unchanged, no backup`, async () => {
      ws = tempWorkspace();
      foreignDatabase(ws.db, opts);
      const before = digest(ws.db);
      const files = siblings(ws.db);
      const e = openFails(ws.db, 'NOT_A_WORKSPACE');
      expect(e.message).toContain(ws.db);
      expect(e.kind).toBe('invalid');
      expect(digest(ws.db)).toBe(before);
      expect(siblings(ws.db)).toEqual(files);
    });
  }

  it("another application's database with tables named projects, tasks and events and user_version 1–3: refused untouched, never switched to WAL", async () => {
    for (const version of [1, 2, 3]) {
      ws = tempWorkspace();
      mkdirSync(dirname(ws.db), { recursive: true });
      const db = new Database(ws.db);
      db.exec(
        'CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE tasks (id INTEGER PRIMARY KEY, project INTEGER, what TEXT); CREATE TABLE events (id INTEGER PRIMARY KEY, at TEXT)',
      );
      db.exec("INSERT INTO tasks (what) VALUES ('water plants')");
      db.pragma(`user_version = ${version}`);
      db.close();
      const before = digest(ws.db);
      const header = readFileSync(ws.db).subarray(18, 20);
      const files = siblings(ws.db);
      expect(openFails(ws.db, 'NOT_A_WORKSPACE').message).toContain(`user_version ${version}, tables events, projects, tasks`);
      // Through the whole stack too.
      await expectCode(
        (async () => {
          const c = openCairn({ db: ws.db });
          try {
            await c.call('list_tasks', {});
          } finally {
            await c.close();
          }
        })(),
        'NOT_A_WORKSPACE',
      );
      expect(isCairnFile(ws.db)).toBe(false);
      expect(digest(ws.db)).toBe(before);
      expect(readFileSync(ws.db).subarray(18, 20)).toEqual(header);
      expect(siblings(ws.db)).toEqual(files);
      ws.cleanup();
    }
  });

  it('a file that is not SQLite at all: NOT_A_WORKSPACE, unchanged', () => {
    ws = tempWorkspace();
    mkdirSync(dirname(ws.db), { recursive: true });
    writeFileSync(ws.db, '# my notes\nnothing to see here\n'.repeat(50));
    const before = digest(ws.db);
    const e = openFails(ws.db, 'NOT_A_WORKSPACE');
    expect(e.message).toMatch(/not a SQLite database/);
    expect(digest(ws.db)).toBe(before);
  });

  it('a 0-byte file stays 0 bytes through reads; the first write makes it a marked workspace', async () => {
    ws = tempWorkspace();
    mkdirSync(dirname(ws.db), { recursive: true });
    writeFileSync(ws.db, '');
    const c = openCairn({ db: ws.db });
    try {
      expect((await c.call('list_projects', {})).projects).toEqual([]);
      expect((await c.call('list_tasks', {})).tasks).toEqual([]);
      expect(statSync(ws.db).size).toBe(0);
      expect(siblings(ws.db)).toEqual(['cairn.db']);
      await c.call('create_project', { key: 'API', name: 'API' });
    } finally {
      await c.close();
    }
    expect(appIdOf(ws.db)).toBe(CAIRN_APPLICATION_ID);
  });

  it('a workspace made before the mark (no application_id) is recognised by its schema and marked', async () => {
    // 15 is the last version Cairn wrote unmarked.
    for (const version of [5, 15]) {
      ws = tempWorkspace();
      const old = openSqliteFile(ws.db, { targetVersion: version });
      old.pragma('application_id = 0');
      old.close();
      expect(appIdOf(ws.db)).toBe(0);
      expect(isCairnFile(ws.db)).toBe(true);
      const c = openCairn({ db: ws.db });
      await c.call('create_project', { key: 'OLD', name: 'old' });
      await c.close();
      expect(appIdOf(ws.db)).toBe(CAIRN_APPLICATION_ID);
      ws.cleanup();
    }
  });
});

describe('environment failures are named, not called bugs', () => {
  it('a truncated workspace: CORRUPT, with how to restore from a backup or an export', async () => {
    const file = await filledWorkspace();
    truncateSync(file, Math.floor(statSync(file).size / 2));
    let e: CairnError;
    try {
      const c = openCairn({ db: file });
      try {
        e = await expectCode(
          (async () => {
            await c.call('list_tasks', { limit: 500 });
            await c.call('search_tasks', { query: 'task' });
            await c.call('create_task', { project: 'API', title: 'one more' });
          })(),
          'CORRUPT',
        );
      } finally {
        await c.close().catch(() => undefined);
      }
    } catch (err) {
      expect(err).toBeInstanceOf(CairnError);
      e = err as CairnError;
      expect(e.code, e.message).toBe('CORRUPT');
    }
    expect(e.message).toContain(file);
    expect(e.message).not.toMatch(/bug in Cairn/);
    expect(e.suggestions.join(' ')).toMatch(/bak-v/);
    expect(e.suggestions.join(' ')).toMatch(/doctor/);
  });

  it('a workspace whose pages were overwritten: CORRUPT on open or on the first call', async () => {
    const file = await filledWorkspace();
    const fd = openSync(file, 'r+');
    // Garbage over every page but the first (the header stays SQLite's).
    const size = statSync(file).size;
    for (let at = 4096; at < size; at += 4096) writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, at);
    closeSync(fd);
    let code: string | undefined;
    try {
      const c = openCairn({ db: file });
      await c.call('list_tasks', {}).finally(() => c.close().catch(() => undefined));
    } catch (err) {
      expect(err).toBeInstanceOf(CairnError);
      code = (err as CairnError).code;
    }
    expect(code).toBe('CORRUPT');
  });

  it('a full disk: DISK_FULL, nothing written', async () => {
    ws = tempWorkspace();
    const store = new SqliteStore(ws.db);
    const c = openCairn({ store });
    try {
      await c.call('create_project', { key: 'API', name: 'API' });
      const raw = store.raw()!;
      // The connection may not grow the file past its current size: SQLite answers SQLITE_FULL, as on a full disk.
      raw.pragma(`max_page_count = ${raw.pragma('page_count', { simple: true }) as number}`);
      const e = await expectCode(
        (async () => {
          for (let i = 0; i < 100; i++) await c.call('create_task', { project: 'API', title: `t${i}`, description: 'y'.repeat(5000) });
        })(),
        'DISK_FULL',
      );
      expect(e.message).toMatch(/full/);
      expect(e.message).not.toMatch(/bug in Cairn/);
    } finally {
      await c.close();
    }
  });

  it('openCairn throws CairnErrors, never raw driver errors (a directory that cannot be created)', () => {
    ws = tempWorkspace();
    writeFileSync(`${ws.dir}/plain-file`, 'x');
    // The parent "directory" is a file: opening for a write can never create the workspace there.
    const c = openCairn({ db: `${ws.dir}/plain-file/.cairn/cairn.db` });
    return expect(c.call('create_project', { key: 'API', name: 'API' }).finally(() => c.close())).rejects.toBeInstanceOf(CairnError);
  });
});
