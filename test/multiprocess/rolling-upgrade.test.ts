/**
 * A rolling upgrade as docs/operations.md describes it, across two versions of Cairn: this build,
 * and a "next" build made for the test by adding one migration to a copy of dist/ (a new column and
 * index, as a release would add). Two replicas of this build serve the workspace; one replica of the
 * next build starts beside them and migrates; the old ones turn unready (a schema they do not know),
 * so the load balancer sends nothing more to them, and finish what they were doing; they are then
 * replaced, and nothing written before, during or after is lost. The postgres leg runs it on one
 * PostgreSQL schema.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConnectionFetch, serveProcess } from '../http/http-harness.js';
import { onPostgres } from '../helpers/engine.js';
import { waitFor } from '../helpers/wait.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { LATEST_POSTGRES_VERSION } from '../../src/store/migrations/postgres.js';
import { LATEST_SQLITE_VERSION } from '../../src/store/migrations/sqlite.js';

const ROOT = resolve(import.meta.dirname, '../..');
const LATEST = onPostgres ? LATEST_POSTGRES_VERSION : LATEST_SQLITE_VERSION;

/** A copy of this build whose migrations end with one more: the next release, as far as the schema goes. */
function nextRelease(dir: string): string {
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  // The one-file CLI holds its own copy of the code; without it the bin runs dist/ as built, patched below.
  rmSync(join(dir, 'dist', 'cli', 'cairn.cjs'));
  const engine = onPostgres ? 'postgres' : 'sqlite';
  const file = join(dir, 'dist', 'store', 'migrations', `${engine}.js`);
  const list = onPostgres ? 'POSTGRES_MIGRATIONS' : 'SQLITE_MIGRATIONS';
  const marker = `export const LATEST_${engine.toUpperCase()}_VERSION =`;
  const source = readFileSync(file, 'utf8');
  expect(source).toContain(marker);
  const step = `${list}.push({ version: ${LATEST + 1}, name: 'rolling upgrade test: a reviewer per task', sql: 'ALTER TABLE tasks ADD COLUMN reviewer TEXT; CREATE INDEX tasks_reviewer ON tasks (reviewer);' });\n`;
  writeFileSync(file, source.replace(marker, step + marker));
  return join(dir, 'bin', 'cairn.js');
}

async function rest(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await freshConnectionFetch(base + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, ...(body ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('a rolling upgrade across two versions', () => {
  let ws: TempWorkspace;
  let dir: string;
  let next: string;
  beforeAll(() => {
    ws = tempWorkspace('cairn-rolling-');
    dir = mkdtempSync(join(tmpdir(), 'cairn-next-release-'));
    next = nextRelease(dir);
  });
  afterAll(() => {
    ws?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('old replicas keep their answers, turn unready once the new one migrated, and nothing written is lost', async () => {
    const [a, b] = await Promise.all([serveProcess(ws.db), serveProcess(ws.db)]);
    let c: Awaited<ReturnType<typeof serveProcess>> | undefined;
    let d: Awaited<ReturnType<typeof serveProcess>> | undefined;
    try {
      expect((await rest(a.url, 'POST', '/api/v1/projects', { key: 'UP', name: 'Upgrade' })).status).toBe(201);
      for (const r of [a, b]) expect((await rest(r.url, 'POST', '/api/v1/tasks', { project: 'UP', title: `before ${r.url}` })).status).toBe(201);
      expect((await rest(a.url, 'GET', '/readyz')).body).toMatchObject({ status: 'ready', schemaVersion: LATEST });

      // The surge replica of the next release: it migrates on open (under the lock every replica takes).
      c = await serveProcess(ws.db, {}, next);
      // Ready once its change-feed listener is up too (PostgreSQL: LISTEN), which may follow the start line: wait, as an orchestrator does.
      const surge = c;
      await waitFor(async () => (await rest(surge.url, 'GET', '/readyz')).status === 200, 'the new replica is ready', 10_000);
      const ready = await rest(c.url, 'GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ schemaVersion: LATEST + 1, latestSchemaVersion: LATEST + 1 });
      // The old ones now see a schema newer than they know: unready, so traffic moves to the new one…
      for (const r of [a, b]) {
        const old = await rest(r.url, 'GET', '/readyz');
        expect(old.status).toBe(503);
        expect(old.body.checks.schema).toBe('newer');
        expect((await rest(r.url, 'GET', '/livez')).status).toBe(200);
      }
      // …while a request that still reaches one is answered (the migration only added to the schema).
      expect((await rest(b.url, 'POST', '/api/v1/tasks', { project: 'UP', title: 'late write to an old replica' })).status).toBe(201);
      expect((await rest(c.url, 'POST', '/api/v1/tasks', { project: 'UP', title: 'during' })).status).toBe(201);

      // The old replicas are replaced one by one.
      await a.stop();
      d = await serveProcess(ws.db, {}, next);
      await b.stop();
      await waitFor(async () => (await rest(d!.url, 'GET', '/readyz')).status === 200, 'the second new replica is ready', 10_000);
      expect((await rest(d.url, 'POST', '/api/v1/tasks', { project: 'UP', title: 'after' })).status).toBe(201);
      for (const r of [c, d]) {
        const titles = (await rest(r.url, 'GET', '/api/v1/tasks?project=UP&limit=50')).body.tasks.map((t: { title: string }) => t.title);
        expect(titles).toHaveLength(5);
        expect(titles).toEqual(expect.arrayContaining(['late write to an old replica', 'during', 'after']));
      }
      // This build, started again on the upgraded workspace, refuses to run rather than serve a schema it does not know.
      await expect(serveProcess(ws.db)).rejects.toThrow(/newer than this Cairn understands/);
    } finally {
      await Promise.all([a.stop(), b.stop(), c?.stop(), d?.stop()]);
    }
  });
});
