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
