/**
 * "A blocker is resolved" is one rule (RESOLVED_CATEGORIES). The SQL keeps it as literals where it
 * must: in migrations, partial-index predicates and hand-written statements. This test finds every
 * such literal in the store and holds it to the rule, so a new category cannot change one without
 * the others.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOLVED_CATEGORIES } from '../../src/core/model/workflow.js';

const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('the resolved categories in SQL', () => {
  it('every `category [NOT] IN (…)` literal in the store names exactly the resolved categories', () => {
    const found: Array<{ file: string; list: string[] }> = [];
    for (const file of files(join(import.meta.dirname, '../../src/store'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/category\s+(?:NOT\s+)?IN\s*\(([^)]*)\)/gi)) found.push({ file, list: [...m[1]!.matchAll(/'([a-z_]+)'/g)].map((x) => x[1]!) });
    }
    // Enough places that the test cannot pass by finding none (migrations, indexes, queries, both engines).
    expect(found.length).toBeGreaterThanOrEqual(6);
    for (const f of found) expect(f.list.sort(), f.file).toEqual([...RESOLVED_CATEGORIES].sort());
  });
});
