/** The one error type every layer throws and every adapter maps: a code, a kind, a fixable message. */

/** How an adapter should present an error: CLI exit code, HTTP status, MCP isError result. */
export type ErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'internal';

/** Every error code Cairn returns, with the kind that decides how adapters map it. */
export const ERROR_KINDS = {
  VALIDATION_ERROR: 'invalid',
  INVALID_STATUS: 'invalid',
  INVALID_ID: 'invalid',
  CYCLE_DETECTED: 'conflict',
  SELF_DEPENDENCY: 'invalid',
  CHECKLIST_INDEX_OUT_OF_RANGE: 'invalid',
  TASK_NOT_FOUND: 'not_found',
  PROJECT_NOT_FOUND: 'not_found',
  TOKEN_NOT_FOUND: 'not_found',
  NO_WORKSPACE: 'not_found',
  /** The file exists but is not Cairn's (another application's database, or not SQLite at all): left untouched. */
  NOT_A_WORKSPACE: 'invalid',
  PROJECT_EXISTS: 'conflict',
  SLUG_TAKEN: 'conflict',
  TOKEN_EXISTS: 'conflict',
  VERSION_CONFLICT: 'conflict',
  ALREADY_CLAIMED: 'conflict',
  /** Claiming a task whose blockers are not finished (claim_task force: true overrides, and history says so). */
  BLOCKED: 'conflict',
  NOT_CLAIMED: 'conflict',
  /** A write to a task another actor holds a live claim on (comments and dependencies stay open): core/services/claim-guard.ts. */
  CLAIMED_BY_OTHER: 'conflict',
  /** A write by an earlier holder whose lease ended and was claimed by another since (fencing). */
  LEASE_LOST: 'conflict',
  /** Claiming a task whose paths (touches) overlap another actor's live claim's (claim_task force: true overrides). */
  PATHS_RESERVED: 'conflict',
  TASK_DELETED: 'conflict',
  STATUS_IN_USE: 'conflict',
  BUSY: 'conflict',
  /** A handoff anchor names a path outside the target repository (`..`, a symlink, an absolute path elsewhere). */
  ANCHOR_OUTSIDE_REPOSITORY: 'invalid',
  /** An idempotency key already recorded for another operation. */
  IDEMPOTENCY_KEY_REUSED: 'conflict',
  /** The database refused a write (unique, foreign key, not null or check constraint); details name the constraint. */
  CONSTRAINT_VIOLATION: 'conflict',
  READ_ONLY: 'forbidden',
  /** The task's fields live in a linked source Cairn does not write (Castle's castle.db unless opted in): docs/links.md. */
  LINK_READ_ONLY: 'forbidden',
  FORBIDDEN: 'forbidden',
  /** The workspace file is damaged (truncated, overwritten): restore it from a backup. */
  CORRUPT: 'internal',
  /** The disk (or a size limit) is full: nothing was written. */
  DISK_FULL: 'internal',
  /** The remote `cairn serve` this session works against cannot be reached (reads fail; writes that can wait go to the outbox). */
  REMOTE_UNREACHABLE: 'internal',
  /** The PostgreSQL server cannot be reached or is restarting: nothing was changed; retry when it is back. */
  DATABASE_UNAVAILABLE: 'internal',
  INTERNAL: 'internal',
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_KINDS;

export interface CairnErrorOptions {
  /** Concrete next steps, ideally naming the tool/command and arguments to call. */
  suggestions?: string[];
  /** Machine-readable extras (e.g. the cycle path, the claim holder). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** Marks a CairnError from any copy of this module (a registered symbol is the same in every copy). */
const BRAND = Symbol.for('cairn.CairnError');

/**
 * A failure the caller can act on. The message says what went wrong, why, and how to fix it.
 *
 * @example
 * throw new CairnError('TASK_NOT_FOUND', 'Task API-99 does not exist.', { suggestions: ['list_tasks {project: "API"}'] });
 */
export class CairnError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly suggestions: string[];
  readonly details: Record<string, unknown> | undefined;

  /**
   * `instanceof` by brand, not by prototype: the bundled CLI has its own copy of this class, while
   * the server modules it loads by path (`cairn serve`, the token commands) throw the tsc build's.
   * Both are Cairn's errors and must be reported as such, not as INTERNAL.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  constructor(code: ErrorCode, message: string, options: CairnErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, BRAND, { value: true });
    this.name = 'CairnError';
    this.code = code;
    this.kind = ERROR_KINDS[code];
    this.suggestions = options.suggestions ?? [];
    this.details = options.details;
  }

  /** The JSON shape every surface (CLI --json, REST, MCP structured errors) uses. */
  toJSON(): { code: ErrorCode; message: string; suggestions: string[]; details?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      suggestions: this.suggestions,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

/** Wraps anything thrown into a CairnError; unknown throws are bugs and become INTERNAL. */
export function toCairnError(err: unknown): CairnError {
  if (err instanceof CairnError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new CairnError('INTERNAL', `Internal error: ${message}. This is a bug in Cairn; please report it with the command you ran.`, {
    cause: err,
  });
}
