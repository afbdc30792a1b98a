/** The MCP bundle's zod patch (scripts/zod-failure-patch.js) still matches the installed zod, and keeps safeParse's contract. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS build script, no types
import { ZOD_FAILURE_PATTERN, ZOD_FAILURE_REPLACEMENT } from '../../scripts/zod-failure-patch.js';

const parseJs = createRequire(import.meta.url)
  .resolve('zod')
  .replace(/index\.(c?js)$/, 'v4/core/parse.js');

describe('zod safeParse failure patch', () => {
  it('matches the installed zod (a zod upgrade that changes failure() must revisit the patch)', () => {
    expect(ZOD_FAILURE_PATTERN.test(readFileSync(parseJs, 'utf8'))).toBe(true);
  });

  it('builds the error lazily, once, and lets callers replace it', () => {
    const util = { finalizeIssue: (iss: { message: string }) => ({ ...iss, path: [] }) };
    const core = { config: () => ({}) };
    const failure = new Function('util', 'core', `${ZOD_FAILURE_REPLACEMENT}; return failure;`)(util, core);
    class Err {
      constructor(readonly issues: unknown[]) {}
    }
    const r = failure(Err, [{ message: 'bad' }], {});
    expect(r.success).toBe(false);
    expect(r.error).toBeInstanceOf(Err);
    expect(r.error).toBe(r.error);
    expect(r.error.issues).toEqual([{ message: 'bad', path: [] }]);
    r.error = 'replaced';
    expect(r.error).toBe('replaced');
  });
});
