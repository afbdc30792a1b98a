/**
 * A constraint the database refused (unique, foreign key, not null, check) as a CairnError naming
 * it, for SQLite's extended codes and PostgreSQL's SQLSTATE class 23 alike. The services check
 * what they can before writing; a refusal that still reaches here is a conflict with the stored
 * state (often a concurrent writer, or a row removed meanwhile), not a bug in the caller's input.
 */
import { CairnError } from '../../core/errors.js';

const SQLITE_KINDS: Record<string, string> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'primary key',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign key',
  SQLITE_CONSTRAINT_NOTNULL: 'not null',
  SQLITE_CONSTRAINT_CHECK: 'check',
  SQLITE_CONSTRAINT_TRIGGER: 'trigger',
};
const POSTGRES_KINDS: Record<string, string> = { '23505': 'unique', '23503': 'foreign key', '23502': 'not null', '23514': 'check', '23P01': 'exclusion' };

/**
 * The constraint as SQLite names it ("UNIQUE constraint failed: projects.key" gives `projects.key`),
 * on PostgreSQL too: there the table and the key's columns (from the error's detail, "Key (key)=…")
 * give the same name, and the constraint's own name is the fallback.
 */
function constraintName(err: { message?: unknown; constraint?: unknown; table?: unknown; detail?: unknown }): string | null {
  const key = typeof err.detail === 'string' ? /^Key \(([^)]+)\)=/.exec(err.detail) : null;
  if (key && typeof err.table === 'string')
    return key[1]!
      .split(', ')
      .map((c) => `${err.table}.${c}`)
      .join(', ');
  if (typeof err.constraint === 'string' && err.constraint) return err.constraint;
  const m = typeof err.message === 'string' ? /constraint failed: (.+)$/i.exec(err.message) : null;
  return m ? m[1]!.trim() : null;
}

/** CONSTRAINT_VIOLATION for a driver's constraint error; undefined for anything else. */
export function constraintViolation(err: unknown): CairnError | undefined {
  if (err instanceof CairnError || err === null || typeof err !== 'object') return undefined;
  const e = err as { code?: unknown; message?: unknown; constraint?: unknown; table?: unknown; detail?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const kind = SQLITE_KINDS[code] ?? POSTGRES_KINDS[code] ?? (code.startsWith('SQLITE_CONSTRAINT') ? 'constraint' : undefined);
  if (!kind) return undefined;
  const name = constraintName(e);
  const what =
    kind === 'foreign key'
      ? 'a row it refers to does not exist (or is still referred to)'
      : kind === 'unique' || kind === 'primary key'
        ? 'another row already holds that value'
        : `the ${kind} rule refused the value`;
  return new CairnError('CONSTRAINT_VIOLATION', `The workspace refused the write: ${kind} constraint${name ? ` ${name}` : ''} failed (${what}). Nothing was changed.`, {
    cause: err,
    suggestions: ['Read the rows involved again (another writer may have changed or removed them meanwhile) and retry', 'If it happens again with fresh data, report it with the command you ran'],
    details: { constraint: name, kind },
  });
}
