/** Properties: checklist batches are all-or-nothing against a reference list; search never errors on any input. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnError } from '../../src/index.js';
import { tempCairn } from '../helpers/workspace.js';

type Item = { text: string; checked: boolean };
type Op = { op: 'add'; text: string; index?: number } | { op: 'check' | 'uncheck' | 'toggle' | 'remove'; index: number } | { op: 'edit'; index: number; text: string };

const text = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'epsilon');
const index = fc.nat({ max: 6 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), text }, { requiredKeys: ['op', 'text'] }),
  fc.record({ op: fc.constant('add' as const), text, index }),
  fc.record({ op: fc.constantFrom('check' as const, 'uncheck' as const, 'toggle' as const, 'remove' as const), index }),
  fc.record({ op: fc.constant('edit' as const), index, text }),
);

/** The reference: apply in order on a copy; any bad index rejects the whole batch. */
function applyRef(list: Item[], ops: Op[]): Item[] | 'OUT_OF_RANGE' {
  const out = list.map((i) => ({ ...i }));
  for (const o of ops) {
    if (o.op === 'add') {
      const at = o.index ?? out.length;
      if (at > out.length) return 'OUT_OF_RANGE';
      out.splice(at, 0, { text: o.text, checked: false });
    } else {
      if (o.index >= out.length) return 'OUT_OF_RANGE';
      if (o.op === 'remove') out.splice(o.index, 1);
      else if (o.op === 'check') out[o.index]!.checked = true;
      else if (o.op === 'uncheck') out[o.index]!.checked = false;
      else if (o.op === 'toggle') out[o.index]!.checked = !out[o.index]!.checked;
      else if (o.op === 'edit') out[o.index]!.text = o.text;
    }
  }
  return out;
}

let c: ReturnType<typeof tempCairn>;
beforeAll(async () => {
  c = tempCairn();
  await c.call('create_project', { key: 'API', name: 'API' });
});
afterAll(async () => c.done());

describe('property: checklist batches are all or nothing', () => {
  it('each batch either applies exactly like the reference or fails and changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(opArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), async (batches) => {
        const { task } = await c.call('create_task', { project: 'API', title: 'list' });
        let ref: Item[] = [];
        let version = task.version;
        for (const ops of batches) {
          const expected = applyRef(ref, ops);
          try {
            const { task: t } = await c.call('update_checklist', { id: task.id, ops });
            expect(expected).not.toBe('OUT_OF_RANGE');
            const changed = JSON.stringify(expected) !== JSON.stringify(ref);
            ref = expected as Item[];
            expect(t.version).toBe(changed ? version + 1 : version);
            version = t.version;
          } catch (e) {
            expect((e as CairnError).code).toBe('CHECKLIST_INDEX_OUT_OF_RANGE');
            expect(expected).toBe('OUT_OF_RANGE');
          }
          const got = (await c.call('get_task', { id: task.id })).task;
          expect(got.checklist).toEqual(ref.map((i, k) => ({ index: k, ...i })));
          expect(got.checklistProgress).toEqual({ done: ref.filter((i) => i.checked).length, total: ref.length });
          expect(got.version).toBe(version);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('property: search never errors', () => {
  it('any query string (FTS operators, quotes, unicode) returns results or nothing, never an error', async () => {
    await c.call('create_task', { project: 'API', title: 'Quoted "phrase" AND (stuff*)', description: 'NEAR/3 ^caret -minus' });
    const fts = fc.constantFrom('"', '*', '(', ')', 'AND', 'OR', 'NOT', 'NEAR/2', '^', '-', '+', ':', '{', '}', ' ', 'phrase', 'stuff', 'é', '\u0000', '🦓');
    const query = fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.array(fts, { minLength: 1, maxLength: 12 }).map((a) => a.join('')),
    );
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        if (q.trim() === '') return;
        const r = await c.call('search_tasks', { query: q });
        expect(Array.isArray(r.results)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
