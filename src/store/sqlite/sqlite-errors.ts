/**
 * Driver and file-system failures that come from the machine, not from Cairn (a damaged file, a
 * full disk, a read-only file or folder), translated into CairnErrors that say what to do.
 * Anything not recognised here is left as it is (a bug, reported as INTERNAL by run-op).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { CairnError } from '../../core/errors.js';
import { constraintViolation } from '../queries/constraint-errors.js';

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** Whether this process may write the path (a file or a folder). */
export function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** CORRUPT: the file is damaged. Points at the migration backups, an export and `cairn doctor`. */
export function corruptError(file: string, why: string, cause?: unknown): CairnError {
  return new CairnError('CORRUPT', `The workspace ${file} is damaged (${why}). Cairn cannot trust what it reads there; nothing was changed.`, {
    cause,
    suggestions: [
      `Run "cairn doctor --db ${file}" to see what SQLite's integrity checks report`,
      `Restore a backup: Cairn copies the file to ${file}.bak-v<version>-<time> before each migration; move the damaged file aside and copy the newest backup (or your own copy of the file) to ${file}`,
      `If you keep an export (cairn export --out cairn-export.jsonl), move the damaged file aside, then "cairn init" and "cairn import cairn-export.jsonl"; "sqlite3 ${file} .recover" can salvage rows`,
    ],
  });
}

/** DISK_FULL: SQLite could not grow the file or its log. */
export function diskFullError(file: string, cause?: unknown): CairnError {
  return new CairnError('DISK_FULL', `The disk holding ${file} is full, so the change could not be written. Nothing was changed.`, {
    cause,
    suggestions: [`Free some space on the disk that holds ${dirname(file)} (df -h ${dirname(file)}), then retry`],
  });
}

/** READ_ONLY: the file, its folder or the mount does not allow writing. */
export function readOnlyError(file: string, detail: string, cause?: unknown): CairnError {
  return new CairnError('READ_ONLY', `The workspace ${file} cannot be written: ${detail}. Reads still work; nothing was changed.`, {
    cause,
    suggestions: [`Make ${file} and its folder writable by this user (ls -l ${dirname(file)}), or use a copy of the workspace on a writable disk`],
  });
}

/** Why a path cannot be written, in words; a read-only mount and permissions read the same to Node. */
export function readOnlyReason(file: string): string {
  const dir = dirname(file);
  if (existsSync(file) && !writable(file)) return 'the file is read-only (permissions, or a read-only mount)';
  if (existsSync(dir) && !writable(dir)) return `its folder ${dir} is read-only (permissions, or a read-only mount), and SQLite needs to create its log files there`;
  return 'the file system refused the write';
}

/** The CairnError for a machine-made failure, or undefined when `err` is something else (left as it is). */
export function translateSqliteError(err: unknown, file: string): CairnError | undefined {
  if (err instanceof CairnError) return err;
  const code = codeOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return corruptError(file, message, err);
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || (code === 'SQLITE_IOERR_WRITE' && /full/.test(message))) return diskFullError(file, err);
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return readOnlyError(file, readOnlyReason(file), err);
  if (code.startsWith('SQLITE_CANTOPEN')) {
    const dir = dirname(file);
    if (!existsSync(dir) || !writable(dir) || (existsSync(file) && !writable(file))) return readOnlyError(file, readOnlyReason(file), err);
    return new CairnError('NOT_A_WORKSPACE', `SQLite cannot open ${file} (${message}).`, {
      cause: err,
      suggestions: ['Check that the path names a file this user can read and write (--db or CAIRN_DB)'],
    });
  }
  if (code.startsWith('SQLITE_CONSTRAINT')) return constraintViolation(err);
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    return new CairnError('NOT_A_WORKSPACE', `Cannot create a workspace at ${file}: a part of that path is a file, not a folder.`, {
      cause: err,
      suggestions: ['Pass --db (or CAIRN_DB) a path inside a folder, e.g. ./.cairn/cairn.db'],
    });
  }
  return undefined;
}
