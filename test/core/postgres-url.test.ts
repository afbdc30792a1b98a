/**
 * What only a PostgreSQL workspace has: its URL (schema, application name, a password kept out of
 * every message) and migrations that replicas starting together run once. Postgres leg only.
 */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn, type Cairn } from '../../src/index.js';
import { LATEST_POSTGRES_VERSION } from '../../src/store/migrations/postgres.js';
import { expectCode } from '../helpers/core.js';
import { onPostgres, pgServerUrl, pgWorkspaceUrl } from '../helpers/engine.js';

const opened: Cairn[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close();
});
const open = (db: string) => {
  const c = openCairn({ db, actor: 'tester' });
  opened.push(c);
  return c;
};

async function query<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: pgServerUrl() });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!onPostgres)('a PostgreSQL workspace', () => {
  it('lives in the schema its URL names, and shows up under its application name', async () => {
    const url = `${pgWorkspaceUrl()}&application_name=cairn-url-test`;
    const schema = /schema=([a-z0-9_]+)/.exec(url)![1]!;
    const c = open(url);
    await c.call('create_project', { key: 'API', name: 'API' });
    const tables = await query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [schema]);
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['projects', 'tasks', 'events', 'task_search', 'cairn_schema']));
    const sessions = await query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'cairn-url-test'`);
    expect(sessions[0]!.n).toBeGreaterThan(0);
  });

  it('refuses a schema that is not a plain identifier, before connecting', async () => {
    const e = await expectCode(open(`${pgServerUrl()}?schema=${encodeURIComponent('x; drop table y')}`).call('list_projects', {}), 'VALIDATION_ERROR');
    expect(e.message).toContain('schema');
  });

  it('never shows the password: a wrong one, an unreachable server, and the store location', async () => {
    const secret = 'hunter2-secret';
    const wrong = pgServerUrl().replace(/:[^:@/]+@/, `:${secret}@`);
    const refused = await expectCode(open(`${wrong}?schema=x_wrong`).call('list_projects', {}), 'FORBIDDEN');
    expect(refused.message).not.toContain(secret);
    const down = await expectCode(open(`postgres://cairn:${secret}@127.0.0.1:1/cairn`).call('list_projects', {}), 'DATABASE_UNAVAILABLE');
    expect(down.message).not.toContain(secret);
    expect(down.message).toContain('***');
    expect(open(`postgres://cairn:${secret}@127.0.0.1:1/cairn`).store.location).not.toContain(secret);
  });

  it('a table changed under prepared statements (another replica migrating) costs a retry, not an error', async () => {
    const url = pgWorkspaceUrl();
    const schema = /schema=([a-z0-9_]+)/.exec(url)![1]!;
    const c = open(url);
    await c.call('create_project', { key: 'API', name: 'API' });
    await c.call('create_task', { project: 'API', title: 'before' });
    for (let i = 0; i < 3; i++) await c.call('get_task', { id: 'API-1' });
    // What a later schema version might do: a new column on the table every task read selects.
    await query(`ALTER TABLE "${schema}".tasks ADD COLUMN later_field text`);
    for (let i = 0; i < 3; i++) expect((await c.call('get_task', { id: 'API-1' })).task.title).toBe('before');
    expect((await c.call('update_task', { id: 'API-1', title: 'after' })).task.title).toBe('after');
  });

  it('prepare=false in the URL runs every statement unnamed (for transaction-mode poolers)', async () => {
    const c = open(`${pgWorkspaceUrl()}&prepare=false&application_name=cairn-unprepared`);
    await c.call('create_project', { key: 'API', name: 'API' });
    await c.call('create_task', { project: 'API', title: 'one' });
    expect((await c.call('get_task', { id: 'API-1' })).task.title).toBe('one');
  });

  it('replicas that start together on a new schema migrate it once', async () => {
    const url = pgWorkspaceUrl();
    const replicas = Array.from({ length: 6 }, () => open(url));
    const answers = await Promise.all(replicas.map((c) => c.call('list_projects', {})));
    expect(answers.every((a) => a.projects.length === 0)).toBe(true);
    const schema = /schema=([a-z0-9_]+)/.exec(url)![1]!;
    const applied = await query<{ version: number }>(`SELECT version FROM "${schema}".cairn_schema ORDER BY version`);
    expect(applied.map((r) => r.version)).toEqual(Array.from({ length: LATEST_POSTGRES_VERSION }, (_, i) => i + 1));
  });
});
