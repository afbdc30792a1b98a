/** Property: no sequence of dependency / parent operations creates a cycle; refusals happen exactly when a reference graph finds one. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CairnError } from '../../src/index.js';
import { allTasks, integrityCheck } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

const N = 6;
const id = (i: number) => `API-${i + 1}`;

type Op = { t: 'dep'; a: number; b: number } | { t: 'undep'; a: number; b: number } | { t: 'parent'; a: number; b: number | null };

const node = fc.integer({ min: 0, max: N - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('dep' as const), a: node, b: node }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('undep' as const), a: node, b: node }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('parent' as const), a: node, b: fc.option(node, { nil: null, freq: 5 }) }) },
);

/** The naive reference: adjacency sets and a parent map, with reachability by DFS. */
class RefGraph {
  blockers = Array.from({ length: N }, () => new Set<number>());
  parent: Array<number | null> = Array.from({ length: N }, () => null);

  reaches(from: number, to: number, next: (n: number) => Iterable<number>): boolean {
    const seen = new Set<number>();
    const stack = [from];
    while (stack.length) {
      const n = stack.pop()!;
      if (n === to) return true;
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...next(n));
    }
    return false;
  }

  /** The error code the op must fail with, or null if it must succeed (and is then applied). */
  apply(op: Op): string | null {
    if (op.t === 'dep') {
      if (op.a === op.b) return 'SELF_DEPENDENCY';
      if (this.reaches(op.b, op.a, (n) => this.blockers[n]!)) return 'CYCLE_DETECTED';
      this.blockers[op.a]!.add(op.b);
      return null;
    }
    if (op.t === 'undep') {
      if (!this.blockers[op.a]!.has(op.b)) return 'VALIDATION_ERROR';
      this.blockers[op.a]!.delete(op.b);
      return null;
    }
    if (op.b === null) {
      this.parent[op.a] = null;
      return null;
    }
    if (op.a === op.b) return 'SELF_DEPENDENCY';
    if (this.reaches(op.b, op.a, (n) => (this.parent[n] === null ? [] : [this.parent[n]!]))) return 'CYCLE_DETECTED';
    this.parent[op.a] = op.b;
    return null;
  }
}

describe('property: the dependency and parent graphs stay acyclic', () => {
  // The timeout bounds a hang, not a speed: the runs take seconds, ten times longer on a loaded two-core machine.
  it('matches a reference graph op by op; every refusal names a real cycle', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40 }), async (ops) => {
        const c = tempCairn();
        try {
          await c.call('create_project', { key: 'API', name: 'API' });
          for (let i = 0; i < N; i++) await c.call('create_task', { project: 'API', title: `t${i}` });
          const ref = new RefGraph();
          for (const op of ops) {
            const expected = ref.apply(op);
            let code: string | null = null;
            let err: CairnError | undefined;
            try {
              if (op.t === 'dep') await c.call('add_dependency', { taskId: id(op.a), blockedBy: id(op.b) });
              else if (op.t === 'undep') await c.call('remove_dependency', { taskId: id(op.a), blockedBy: id(op.b) });
              else await c.call('update_task', { id: id(op.a), parentId: op.b === null ? null : id(op.b) });
            } catch (e) {
              err = e as CairnError;
              code = err.code ?? String(e);
            }
            expect(code, JSON.stringify(op)).toBe(expected);
            if (code === 'CYCLE_DETECTED') {
              // the named path is a loop made of the proposed edge plus existing edges
              const path = (err!.details as { cycle: string[] }).cycle.map((s) => Number(s.split('-')[1]) - 1);
              expect(path[0]).toBe(op.a);
              expect(path.at(-1)).toBe(op.a);
              expect(path[1]).toBe(op.b);
              for (let k = 1; k < path.length - 1; k++) {
                const [x, y] = [path[k]!, path[k + 1]!];
                expect(op.t === 'dep' ? ref.blockers[x]!.has(y) : ref.parent[x] === y).toBe(true);
              }
            }
          }
          const tasks = await allTasks(c);
          for (let i = 0; i < N; i++) {
            const t = tasks.find((x) => x.id === id(i))!;
            expect([...t.blockedBy].sort()).toEqual([...ref.blockers[i]!].map(id).sort());
            expect(t.parentId).toBe(ref.parent[i] === null ? null : id(ref.parent[i]!));
          }
          expect(await integrityCheck(c.ws.db)).toBe('ok');
        } finally {
          await c.done();
        }
      }),
      { numRuns: 30 },
    );
  });
});
