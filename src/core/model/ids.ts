/** Identifier formats: project keys, display ids (KEY-N), and the stable internal ULIDs. */
import { createRequire } from 'node:module';
import type * as Ulid from 'ulid';
import * as z from 'zod';
import { nodeCrypto } from '../lazy-builtins.js';

export const PROJECT_KEY_RE = /^[A-Z]{2,10}$/;
export const DISPLAY_ID_RE = /^([A-Za-z]{2,10})-([1-9][0-9]{0,9})$/;
export const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/i;

export const ProjectKey = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(PROJECT_KEY_RE, 'project key must be 2–10 letters A–Z, e.g. "API"'))
  .describe('Project key: 2–10 letters, e.g. API');

/** A task reference as users type it: display id `API-12` or internal ULID. */
export const TaskRef = z.string().trim().min(1, 'task id must not be empty').max(64, 'task id is too long');

export type ParsedTaskRef = { type: 'display'; projectKey: string; seq: number; text: string } | { type: 'ulid'; id: string; text: string } | { type: 'malformed'; text: string };

/** Classifies a task reference without touching the store. */
export function parseTaskRef(ref: string): ParsedTaskRef {
  const text = ref.trim();
  const m = DISPLAY_ID_RE.exec(text);
  if (m) return { type: 'display', projectKey: m[1]!.toUpperCase(), seq: Number(m[2]), text: `${m[1]!.toUpperCase()}-${m[2]}` };
  if (ULID_RE.test(text)) return { type: 'ulid', id: text.toUpperCase(), text };
  return { type: 'malformed', text };
}

export function displayId(projectKey: string, seq: number): string {
  return `${projectKey}-${seq}`;
}

/**
 * New internal ids, strictly increasing within a process even inside one millisecond, so ties on a
 * timestamp (comments, tasks created in the same ms) still sort in creation order.
 */
export const newUlid = (): string => (ulidFactory ??= (requireLazily('ulid') as typeof Ulid).monotonicFactory(pooledRandom()))();

// ulid (which imports node:crypto) loads with the first id made: a read makes none, and loading
// node:crypto would add a few milliseconds to every CLI command's start (core/lazy-builtins.ts).
const requireLazily = createRequire(import.meta.url);
let ulidFactory: (() => string) | undefined;

/**
 * ulid's default source asks the OS for one byte per character (16 calls per id), a visible share
 * of a create. This draws the same bytes from the CSPRNG a page at a time. Byte / 256 is uniform
 * in [0, 1) and maps evenly onto the 32 symbols.
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      nodeCrypto().randomFillSync(pool);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}
