/**
 * `cairn doctor`: what is wrong with a workspace file, found without changing it (a read-only
 * connection; no migration, no mark): format, owner, schema version, write access, SQLite's
 * quick_check and integrity_check, foreign keys, and the backups next to it.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CairnError, toCairnError, type ErrorCode } from '../../core/errors.js';
import { LATEST_SQLITE_VERSION } from '../migrations/sqlite.js';
import { writable } from './sqlite-errors.js';
import { Database, type SqliteDatabase } from './native.js';
import { assertCairnFile, assertSqliteHeader, CAIRN_APPLICATION_ID, inMemoryCopy, schemaVersion } from './open.js';
import { corruptError, readOnlyError, readOnlyReason, translateSqliteError } from './sqlite-errors.js';

export interface DoctorCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface DoctorReport {
  workspace: string;
  /** True when every check passed. */
  ok: boolean;
  checks: DoctorCheck[];
  /** Copies Cairn made before migrations (`<file>.bak-v<N>-<time>`), newest first. */
  backups: string[];
  /** The first problem found as the error Cairn would report for it, with its fix. */
  problem: { code: ErrorCode; message: string; suggestions: string[] } | null;
}

const MAX_ISSUES = 20;

function backupsOf(file: string): string[] {
  try {
    const prefix = `${basename(file)}.bak-`;
    return readdirSync(dirname(file))
      .filter((f) => f.startsWith(prefix))
      .sort()
      .reverse()
      .map((f) => join(dirname(file), f));
  } catch {
    return [];
  }
}

function openForInspection(file: string): SqliteDatabase {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('schema_version');
    return db;
  } catch (err) {
    db.close();
    const code = String((err as { code?: unknown }).code);
    if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) return inMemoryCopy(file);
    throw err;
  }
}

/** Runs a PRAGMA check; its rows other than "ok" are the problems found (at most MAX_ISSUES shown). */
function pragmaRows(db: SqliteDatabase, sql: string): string[] {
  return (db.prepare(sql).raw(true).all() as unknown[][]).map((r) => r.map(String).join(' ')).filter((r) => r !== 'ok');
}

/** Diagnoses the workspace file at `file` without changing it. */
export function diagnoseWorkspace(file: string): DoctorReport {
  const checks: DoctorCheck[] = [];
  let problem: CairnError | undefined;
  const fail = (name: string, detail: string, err: CairnError) => {
    checks.push({ name, ok: false, detail });
    problem ??= err;
  };
  const report = (): DoctorReport => ({ workspace: file, ok: !problem, checks, backups: backupsOf(file), problem: problem ? problem.toJSON() : null });

  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new CairnError('NOT_A_WORKSPACE', `${file} is a folder, not a workspace file.`, { suggestions: [`cairn doctor --db ${file}/cairn.db`] });
    size = st.size;
  } catch (err) {
    const e = err instanceof CairnError ? err : new CairnError('NO_WORKSPACE', `No workspace file at ${file}.`, { suggestions: ['cairn init  (creates .cairn/ in this folder)'] });
    fail('file', e.message, e);
    return report();
  }
  checks.push({ name: 'file', ok: true, detail: `${size} bytes` });
  if (size === 0) {
    checks.push({ name: 'format', ok: true, detail: 'empty: the first write makes it a workspace' });
    return report();
  }
  try {
    assertSqliteHeader(file);
    checks.push({ name: 'format', ok: true, detail: 'SQLite 3' });
  } catch (err) {
    fail('format', 'not a SQLite database', toCairnError(err));
    return report();
  }

  let db: SqliteDatabase | undefined;
  try {
    db = openForInspection(file);
    const id = db.pragma('application_id', { simple: true }) as number;
    assertCairnFile(db, file);
    checks.push({ name: 'owner', ok: true, detail: id === CAIRN_APPLICATION_ID ? 'Cairn workspace (application_id set)' : 'Cairn workspace made before the mark (marked at the next write)' });
    const version = schemaVersion(db);
    if (version > LATEST_SQLITE_VERSION) checks.push({ name: 'schema', ok: false, detail: `version ${version}, newer than this Cairn (${LATEST_SQLITE_VERSION}): upgrade Cairn` });
    else
      checks.push({
        name: 'schema',
        ok: true,
        detail: version === LATEST_SQLITE_VERSION ? `version ${version} (current)` : `version ${version} (migrated to ${LATEST_SQLITE_VERSION} at the next open, after a backup)`,
      });
    if (writable(file) && writable(dirname(file))) checks.push({ name: 'writable', ok: true, detail: 'yes' });
    else fail('writable', readOnlyReason(file), readOnlyError(file, readOnlyReason(file)));

    for (const [name, sql] of [
      ['quick_check', 'PRAGMA quick_check'],
      ['integrity_check', `PRAGMA integrity_check(${MAX_ISSUES})`],
      ['foreign_keys', 'PRAGMA foreign_key_check'],
    ] as const) {
      const found = pragmaRows(db, sql);
      if (found.length === 0) checks.push({ name, ok: true, detail: 'ok' });
      else fail(name, found.slice(0, MAX_ISSUES).join('; '), corruptError(file, `${name}: ${found[0]}`));
    }
  } catch (err) {
    const e = translateSqliteError(err, file) ?? toCairnError(err);
    fail(e.code === 'NOT_A_WORKSPACE' ? 'owner' : 'open', e.message, e);
  } finally {
    db?.close();
  }
  return report();
}
