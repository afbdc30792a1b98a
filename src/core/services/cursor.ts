/**
 * Opaque paging cursors. A list cursor is a keyset: the sort key of the last row shown, so the next
 * page starts strictly after it and tasks created, moved or completed meanwhile never shift a row
 * into a repeat or a gap. A search cursor names the hits already shown (see SearchAfter). Each is
 * bound to the query it came from, and anything not produced by encode* is refused as VALIDATION_ERROR.
 */
import { CairnError } from '../errors.js';
import { priorityRank } from '../model/task.js';
import type { ListAfter, SearchAfter, TaskSort, TaskSummaryRow } from '../ports.js';

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

type Slot = 'int' | 'num' | 'str';
/** The sort key per sort, in ORDER BY order (the store's columns for each are in task-list.ts). */
const KEY_SLOTS: Record<TaskSort, readonly Slot[]> = {
  priority: ['int', 'num', 'num', 'str', 'str'], // priority rank, score, position, created_at, uid
  ready: ['int', 'num', 'num', 'str', 'str'],
  created: ['str', 'str'], // created_at, uid
  updated: ['str', 'str'], // updated_at, uid
  position: ['str', 'str', 'num', 'str'], // project_uid, status, position, uid
  id: ['str', 'int'], // project_uid, seq
};

/** The row's position in `sort` order: what the next page starts after. */
export function sortKeyOf(row: TaskSummaryRow, sort: TaskSort): ListAfter {
  switch (sort) {
    case 'created':
      return [row.createdAt, row.uid];
    case 'updated':
      return [row.updatedAt, row.uid];
    case 'position':
      return [row.projectUid, row.status, row.position, row.uid];
    case 'id':
      return [row.projectUid, row.seq];
    default:
      return [priorityRank(row.priority), row.score, row.position, row.createdAt, row.uid];
  }
}

function invalid(): CairnError {
  return new CairnError('VALIDATION_ERROR', 'cursor is not valid: pass the nextCursor value from the previous page unchanged.', {
    suggestions: ['Repeat the call without cursor to start from the first page'],
  });
}

function parse(cursor: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // not base64 JSON
  }
  throw invalid();
}

function checkQuery(parsed: Record<string, unknown>, query: unknown): void {
  if (typeof parsed.q !== 'string') throw invalid();
  if (parsed.q !== fingerprint(query)) {
    throw new CairnError('VALIDATION_ERROR', 'cursor belongs to a query with different filters or sort; a cursor only continues the query that produced it.', {
      suggestions: ['Repeat the call without cursor, or with the same filters as the first page'],
    });
  }
}

const fits = (v: unknown, slot: Slot): boolean =>
  slot === 'str' ? typeof v === 'string' && v.length <= 200 : typeof v === 'number' && Number.isFinite(v) && (slot === 'num' || (Number.isSafeInteger(v) && Math.abs(v) <= 1e12));

export function encodeCursor(after: ListAfter, query: unknown): string {
  return Buffer.from(JSON.stringify({ k: after, q: fingerprint(query) })).toString('base64url');
}

/** The keyset a list cursor carries, checked value by value against the sort's key. */
export function decodeCursor(cursor: string, query: unknown, sort: TaskSort): ListAfter {
  const parsed = parse(cursor);
  const slots = KEY_SLOTS[sort];
  const k = parsed.k;
  if (!Array.isArray(k) || k.length !== slots.length || !k.every((v, i) => fits(v, slots[i]!))) throw invalid();
  checkQuery(parsed, query);
  return k as ListAfter;
}

/** Up to this many shown hits a search cursor lists them (exact); past it, it keeps (rank, number) only. */
export const SEARCH_SEEN_CAP = 500;

/** Hit numbers as sorted base-36 deltas: about 3 characters a hit. */
const packNums = (nums: number[]): string => {
  const sorted = [...new Set(nums)].sort((a, b) => a - b);
  return sorted.map((n, i) => (n - (i ? sorted[i - 1]! : 0)).toString(36)).join('.');
};
function unpackNums(text: string): number[] | undefined {
  if (!/^[0-9a-z]{1,11}(\.[0-9a-z]{1,11})*$/.test(text)) return undefined;
  let at = 0;
  const out: number[] = [];
  for (const part of text.split('.')) {
    at += parseInt(part, 36);
    out.push(at);
  }
  return out.length <= SEARCH_SEEN_CAP && out.every((n) => Number.isSafeInteger(n)) ? out : undefined;
}

export function encodeSearchCursor(after: SearchAfter, query: unknown): string {
  const body = 'seen' in after ? { s: packNums(after.seen) } : { r: after.rank, n: after.num };
  return Buffer.from(JSON.stringify({ ...body, q: fingerprint(query) })).toString('base64url');
}

export function decodeSearchCursor(cursor: string, query: unknown): SearchAfter {
  const parsed = parse(cursor);
  let after: SearchAfter | undefined;
  if (typeof parsed.s === 'string') {
    const seen = unpackNums(parsed.s);
    if (seen) after = { seen };
  } else if (fits(parsed.r, 'num') && fits(parsed.n, 'int')) {
    after = { rank: parsed.r as number, num: parsed.n as number };
  }
  if (!after) throw invalid();
  checkQuery(parsed, query);
  return after;
}
