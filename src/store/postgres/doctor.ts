/**
 * `cairn doctor` for a PostgreSQL workspace, without changing it (no migration, nothing written but
 * one notification to itself): the server reachable and who logs in, the schema version, whether
 * the feed's notifications arrive, and which Cairn processes are connected now (each process keeps
 * one connection listening on the feed, so those connections are the replicas).
 */
import pg from 'pg';
import { toCairnError } from '../../core/errors.js';
import type { DoctorCheck, DoctorReport } from '../sqlite/doctor.js';
import { LATEST_POSTGRES_VERSION } from '../migrations/postgres.js';
import { parsePostgresUrl } from './connection.js';
import { translatePgError } from './pg-errors.js';

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;
const NOTIFY_WAIT_MS = 3000;

export async function diagnosePostgres(url: string): Promise<DoctorReport> {
  const target = parsePostgresUrl(url);
  const checks: DoctorCheck[] = [];
  const report = (problem: DoctorReport['problem'] = null): DoctorReport => ({ workspace: target.display, ok: problem === null && checks.every((c) => c.ok), checks, backups: [], problem });
  const client = new pg.Client({ connectionString: target.connectionString, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (err) {
    const e = translatePgError(err, target.display) ?? toCairnError(err);
    checks.push({ name: 'reachable', ok: false, detail: e.message });
    return report({ code: e.code, message: e.message, suggestions: e.suggestions });
  }
  try {
    const who = await client.query<{ version: string; usr: string; db: string }>("SELECT current_setting('server_version') AS version, current_user AS usr, current_database() AS db");
    const w = who.rows[0]!;
    checks.push({ name: 'reachable', ok: true, detail: `PostgreSQL ${w.version}, database ${w.db} as ${w.usr}` });

    const table = await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [`${quote(target.schema)}.cairn_schema`]);
    const version = table.rows[0]?.t ? ((await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${quote(target.schema)}.cairn_schema`)).rows[0]?.v ?? 0) : 0;
    if (version > LATEST_POSTGRES_VERSION) {
      const message = `The workspace ${target.display} has schema version ${version}, newer than this Cairn understands (${LATEST_POSTGRES_VERSION}). Upgrade Cairn to open it.`;
      checks.push({ name: 'schema', ok: false, detail: `version ${version}, newer than this Cairn (${LATEST_POSTGRES_VERSION})` });
      return report({ code: 'VALIDATION_ERROR', message, suggestions: ['npm install -g cairn-tasks@latest'] });
    }
    checks.push({
      name: 'schema',
      ok: true,
      detail:
        version === 0
          ? `no Cairn schema "${target.schema}" yet: the first write creates it`
          : version === LATEST_POSTGRES_VERSION
            ? `version ${version} (current), schema "${target.schema}"`
            : `version ${version}, migrated to ${LATEST_POSTGRES_VERSION} on the next open, schema "${target.schema}"`,
    });

    const channel = `cairn_${target.schema}`;
    const feed = await notificationCheck(client, channel);
    checks.push(feed);

    const listening = await client.query<{ addr: string | null; since: string }>(
      `SELECT coalesce(host(client_addr), 'local') AS addr, to_char(backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS since
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query = $1 ORDER BY backend_start`,
      [`LISTEN ${quote(channel)}`],
    );
    const n = listening.rows.length;
    checks.push({
      name: 'replicas',
      ok: true,
      detail: n === 0 ? 'no Cairn process is connected now' : `${n} Cairn process${n === 1 ? '' : 'es'} connected now: ${listening.rows.map((r) => `${r.addr} since ${r.since}`).join(', ')}`,
    });
    if (!feed.ok) {
      return report({
        code: 'DATABASE_UNAVAILABLE',
        message: `Notifications on ${target.display} do not arrive: live views (the board, subscriptions) wait for their next poll instead of waking at each commit.`,
        suggestions: ['Connect Cairn to PostgreSQL directly or through a pooler in session mode: transaction mode drops LISTEN'],
      });
    }
    return report();
  } catch (err) {
    const e = translatePgError(err, target.display) ?? toCairnError(err);
    checks.push({ name: 'query', ok: false, detail: e.message });
    return report({ code: e.code, message: e.message, suggestions: e.suggestions });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** LISTEN on the feed's channel and NOTIFY it once: what every replica's live views rely on. */
async function notificationCheck(client: pg.Client, channel: string): Promise<DoctorCheck> {
  const token = `doctor-${process.pid}-${Date.now()}`;
  const arrived = new Promise<boolean>((done) => {
    const timer = setTimeout(() => done(false), NOTIFY_WAIT_MS);
    client.on('notification', (m) => {
      if (m.payload === token) {
        clearTimeout(timer);
        done(true);
      }
    });
  });
  await client.query(`LISTEN ${quote(channel)}`);
  await client.query('SELECT pg_notify($1, $2)', [channel, token]);
  const ok = await arrived;
  await client.query(`UNLISTEN ${quote(channel)}`);
  return {
    name: 'feed',
    ok,
    detail: ok
      ? `notifications on "${channel}" arrive`
      : `a notification on "${channel}" did not arrive within ${NOTIFY_WAIT_MS / 1000} s: live views fall back to polling (a pooler in transaction mode drops LISTEN)`,
  };
}
