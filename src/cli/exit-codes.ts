/** Process exit codes, one per error kind, so scripts can branch without parsing messages. */
import type { ErrorKind } from '../core/errors.js';

export const EXIT_OK = 0;

export const EXIT_CODES: Record<ErrorKind, number> = {
  invalid: 1,
  not_found: 2,
  conflict: 3,
  forbidden: 4,
  internal: 5,
};

let requested = EXIT_OK;

/** A command that printed its answer but must still fail the process (a report that finds a problem). */
export function exitWith(code: number): void {
  requested = code;
}

/** The code a command asked for, once: main() returns it, and the next command starts at 0. */
export function takeRequestedExit(): number {
  const code = requested;
  requested = EXIT_OK;
  return code;
}
