/**
 * `cairn db status` and `cairn db migrate`, as an operator runs them before an upgrade: on a SQLite
 * file made at an older schema, on one newer than this Cairn, and (postgres leg) on a new schema
 * that two replicas migrate at the same moment.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { onPostgres, pgWorkspaceUrl } from '../helpers/engine.js';
import { LATEST_POSTGRES_VERSION } from '../../src/store/migrations/postgres.js';
import { LATEST_SQLITE_VERSION } from '../../src/store/migrations/sqlite.js';
import { openSqliteFile, readSchemaVersion } from '../../src/store/sqlite/open.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function harness(): CliHarness {
  const h = cliHarness();
  cleanups.push(h.cleanup);
  return h;
}

describe.skipIf(onPostgres)('db status and db migrate on a SQLite workspace', () => {
  it('an older file: status lists the pending migrations, --dry-run changes nothing, migrate applies them after a backup', () => {
    const h = harness();
    const from = LATEST_SQLITE_VERSION - 3;
    openSqliteFile(h.db, { targetVersion: from }).close();

    const status = h.run(['db', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.json()).toMatchObject({ engine: 'sqlite', schemaVersion: from, latestSchemaVersion: LATEST_SQLITE_VERSION, state: 'older' });
    expect(status.json().pending.map((m: { version: number }) => m.version)).toEqual([from + 1, from + 2, from + 3]);
    const text = h.run(['db', 'status']).stdout;
    expect(text).toContain(`Schema version ${from}; this Cairn has ${LATEST_SQLITE_VERSION} and applies these 3 migrations`);
    expect(readSchemaVersion(h.db)).toBe(from);

    const dry = h.run(['db', 'migrate', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Nothing was changed.');
    expect(readSchemaVersion(h.db)).toBe(from);

    const done = h.run(['db', 'migrate', '--json']);
    expect(done.code, done.stderr).toBe(0);
    const r = done.json();
    expect(r).toMatchObject({ schemaVersion: LATEST_SQLITE_VERSION, state: 'current', pending: [] });
    expect(r.applied.map((m: { version: number }) => m.version)).toEqual([from + 1, from + 2, from + 3]);
    expect(r.backup).toMatch(new RegExp(`cairn\\.db\\.bak-v${from}-`));
    expect(existsSync(r.backup)).toBe(true);
    expect(readSchemaVersion(r.backup)).toBe(from);
    expect(readSchemaVersion(h.db)).toBe(LATEST_SQLITE_VERSION);
    expect(h.run(['db', 'migrate']).stdout).toContain('nothing to apply');
    expect(h.run(['db', 'status']).stdout).toContain('current; this Cairn opens it');
  });

  it('a file newer than this Cairn: status says upgrade and exits 1; migrate refuses and changes nothing', () => {
    const h = harness();
    const db = openSqliteFile(h.db);
    db.pragma(`user_version = ${LATEST_SQLITE_VERSION + 1}`);
    db.close();
    const status = h.run(['db', 'status']);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(`newer than this Cairn understands (${LATEST_SQLITE_VERSION}): upgrade Cairn`);
    const migrate = h.run(['db', 'migrate']);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toContain('Nothing was changed');
    expect(readSchemaVersion(h.db)).toBe(LATEST_SQLITE_VERSION + 1);
  });

  it('no workspace: status says how one is made; migrate refuses with NO_WORKSPACE and creates nothing', () => {
    const h = harness();
    expect(h.run(['db', 'status']).stdout).toContain('No workspace yet');
    const migrate = h.run(['db', 'migrate', '--json']);
    expect(migrate.code).not.toBe(0);
    expect(migrate.json().error.code).toBe('NO_WORKSPACE');
    expect(existsSync(h.db)).toBe(false);
  });
});

describe.skipIf(!onPostgres)('db status and db migrate on PostgreSQL', () => {
  it('a new schema: status says none, two replicas migrating at once both succeed and the schema is made once', async () => {
    const h = harness();
    const url = pgWorkspaceUrl();
    const env = { env: { CAIRN_DB: url } };
    expect(h.run(['db', 'status', '--json'], env).json()).toMatchObject({ engine: 'postgres', schemaVersion: 0, state: 'none' });
    const dry = h.run(['db', 'migrate', '--dry-run', '--json'], env).json();
    expect(dry.pending).toHaveLength(LATEST_POSTGRES_VERSION);
    expect(h.run(['db', 'status', '--json'], env).json().state).toBe('none');
    const both = await Promise.all([h.runAsync(['db', 'migrate', '--json'], env), h.runAsync(['db', 'migrate', '--json'], env)]);
    for (const r of both) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ schemaVersion: LATEST_POSTGRES_VERSION, state: 'current' });
    }
    expect(h.run(['db', 'status'], env).stdout).toContain(`Schema version ${LATEST_POSTGRES_VERSION}: current`);
    const password = decodeURIComponent(new URL(url).password);
    if (password) expect(h.run(['db', 'status'], env).stdout).not.toContain(`:${password}@`);
  });
});
