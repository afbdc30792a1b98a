/**
 * `cairn db status` and `cairn db migrate`: what schema a workspace holds, whether this Cairn can
 * open it, and the migrations it would apply. Every Cairn still migrates on open; these let an
 * operator look first and migrate at a chosen moment (before a rolling upgrade, docs/operations.md).
 */
import { CairnError } from '../core/errors.js';
import { LATEST_POSTGRES_VERSION, POSTGRES_MIGRATIONS } from './migrations/postgres.js';
import { LATEST_SQLITE_VERSION, SQLITE_MIGRATIONS } from './migrations/sqlite.js';
import { isPostgresUrl, redact } from './postgres/url.js';
import { hasDatabaseFile, openSqliteFile, readSchemaVersion } from './sqlite/open.js';

export interface SchemaStep {
  version: number;
  name: string;
}

export interface SchemaReport {
  location: string;
  engine: 'sqlite' | 'postgres';
  schemaVersion: number;
  latestSchemaVersion: number;
  /** none: no workspace yet; older: migrations pending (any Cairn of this version applies them on open); newer: upgrade Cairn. */
  state: 'none' | 'current' | 'older' | 'newer';
  /** Migrations this Cairn would apply, oldest first. */
  pending: SchemaStep[];
  /** `migrate`: the migrations between the version found and the version now (another replica may have applied some first). */
  applied?: SchemaStep[];
  /** `migrate` on SQLite: the copy of the file made before migrating. */
  backup?: string | null;
}

const steps = (all: readonly SchemaStep[], after: number, upTo: number) => all.filter((m) => m.version > after && m.version <= upTo).map(({ version, name }) => ({ version, name }));

function report(location: string, engine: SchemaReport['engine'], version: number): SchemaReport {
  const [all, latest] = engine === 'sqlite' ? [SQLITE_MIGRATIONS, LATEST_SQLITE_VERSION] : [POSTGRES_MIGRATIONS, LATEST_POSTGRES_VERSION];
  const state = version === 0 ? 'none' : version === latest ? 'current' : version < latest ? 'older' : 'newer';
  return { location, engine, schemaVersion: version, latestSchemaVersion: latest, state, pending: state === 'newer' ? [] : steps(all, version, latest) };
}

async function withPostgres<T>(url: string, fn: (store: import('./postgres/store.js').PostgresStore) => Promise<T>): Promise<T> {
  const { PostgresStore } = await import('./postgres/store.js');
  const store = new PostgresStore(url);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The schema a workspace holds; nothing is created or migrated. */
export async function schemaStatus(path: string): Promise<SchemaReport> {
  if (isPostgresUrl(path)) return withPostgres(path, async (s) => report(redact(path), 'postgres', (await s.status()).schemaVersion));
  return report(path, 'sqlite', hasDatabaseFile(path) ? readSchemaVersion(path) : 0);
}

/**
 * Applies the pending migrations (on PostgreSQL under the advisory lock every replica takes, so two
 * never migrate at once), or with `dryRun` only says which it would apply.
 */
export async function migrateSchema(path: string, dryRun: boolean): Promise<SchemaReport> {
  const before = await schemaStatus(path);
  if (before.state === 'newer') {
    throw new CairnError(
      'VALIDATION_ERROR',
      `The workspace ${before.location} has schema version ${before.schemaVersion}, newer than this Cairn understands (${before.latestSchemaVersion}). Nothing was changed.`,
      {
        suggestions: ['npm install -g cairn-tasks@latest'],
      },
    );
  }
  if (before.engine === 'sqlite' && before.state === 'none') {
    throw new CairnError('NO_WORKSPACE', `There is no workspace at ${path} to migrate. Nothing was changed.`, {
      suggestions: ['cairn init creates one (at the latest schema)', '--db PATH or CAIRN_DB=PATH names another'],
    });
  }
  if (dryRun || before.pending.length === 0) return { ...before, applied: [] };
  if (before.engine === 'postgres') {
    const after = await withPostgres(path, async (s) => {
      await s.read(async () => undefined);
      return (await s.status()).schemaVersion;
    });
    return { ...report(before.location, 'postgres', after), applied: steps(POSTGRES_MIGRATIONS, before.schemaVersion, after) };
  }
  let backup: string | null = null;
  let from = before.schemaVersion;
  openSqliteFile(path, {
    onMigrated: (v, b) => {
      from = v;
      backup = b;
    },
  }).close();
  const after = readSchemaVersion(path);
  return { ...report(path, 'sqlite', after), applied: steps(SQLITE_MIGRATIONS, from, after), backup };
}
