/** Opaque list cursors: an offset bound to the query it came from, so a cursor reused with other filters is refused. */
import { CairnError } from '../errors.js';

/** FNV-1a over the query's JSON: catches a cursor reused with other filters (not a secret; a hash per list call is cheaper than sha1). */
function fingerprint(query: unknown): string {
  const text = JSON.stringify(query);
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36);
}

export function encodeCursor(offset: number, query: unknown): string {
  return Buffer.from(JSON.stringify({ o: offset, q: fingerprint(query) })).toString('base64url');
}

export function decodeCursor(cursor: string, query: unknown): number {
  let parsed: { o?: unknown; q?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = {};
  }
  if (typeof parsed.o !== 'number' || !Number.isInteger(parsed.o) || parsed.o < 0 || typeof parsed.q !== 'string') {
    throw new CairnError('VALIDATION_ERROR', 'cursor is not valid: pass the nextCursor value from the previous page unchanged.', {
      suggestions: ['Repeat the call without cursor to start from the first page'],
    });
  }
  if (parsed.q !== fingerprint(query)) {
    throw new CairnError('VALIDATION_ERROR', 'cursor belongs to a query with different filters or sort; a cursor only continues the query that produced it.', {
      suggestions: ['Repeat the call without cursor, or with the same filters as the first page'],
    });
  }
  return parsed.o;
}
