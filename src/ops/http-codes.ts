/**
 * The error codes only the HTTP layer produces (authentication, limits, routing), each with its
 * status and the core code a client of the API reports it as. No imports: the remote runner reads
 * this table without loading the HTTP server.
 */
import type { ErrorCode } from '../core/errors.js';

export const HTTP_ONLY_CODES = {
  UNAUTHORIZED: 401,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
} as const;
export type HttpOnlyCode = keyof typeof HTTP_ONLY_CODES;

/** What a remote runner (src/remote) reports each as: the nearest code its own surfaces know. */
export const HTTP_ONLY_AS: Record<HttpOnlyCode, ErrorCode> = {
  UNAUTHORIZED: 'FORBIDDEN',
  ROUTE_NOT_FOUND: 'VALIDATION_ERROR',
  METHOD_NOT_ALLOWED: 'VALIDATION_ERROR',
  PRECONDITION_FAILED: 'VERSION_CONFLICT',
  PAYLOAD_TOO_LARGE: 'VALIDATION_ERROR',
  UNSUPPORTED_MEDIA_TYPE: 'VALIDATION_ERROR',
  RATE_LIMITED: 'BUSY',
};

/** The core code for a code the server answered that the core does not know (a newer server's, or a proxy's): by status. */
export function coreCodeOf(code: string, status: number): ErrorCode {
  if (code in HTTP_ONLY_AS) return HTTP_ONLY_AS[code as HttpOnlyCode];
  return status === 401 || status === 403 ? 'FORBIDDEN' : status === 429 ? 'BUSY' : status < 500 ? 'VALIDATION_ERROR' : 'INTERNAL';
}
