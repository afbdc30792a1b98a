/**
 * The blocking edges an import adds, kept acyclic with the graph already in the workspace. Other
 * tools allow cycles (two Beads issues that block each other); a Cairn graph has none, because a
 * cycle leaves every task on it blocked forever. An edge that would close one is left out with a
 * warning naming the cycle, as an unknown blocker is.
 *
 * One pass finds whether the new edges close any cycle at all (the common answer is no, for
 * thousands of edges at the cost of one walk); only then are they checked one by one, in input
 * order, so the edges left out are the ones that came last.
 */
import { findCycle } from '../../rules/cycles.js';

export interface NewEdge {
  taskUid: string;
  blockerUid: string;
}

/**
 * `existing(uid)`: the blockers a task already has in the workspace (asked only for tasks that are
 * not `fresh`: tasks this import creates have none yet). `label(uid)` names a task in a warning.
 */
export async function withoutCycles<E extends NewEdge>(
  edges: readonly E[],
  fresh: ReadonlySet<string>,
  existing: (uid: string) => Promise<readonly string[]>,
  warn: (cycle: string[], edge: E) => void,
): Promise<E[]> {
  const known = new Map<string, readonly string[]>();
  const stored = async (n: string): Promise<readonly string[]> => {
    if (fresh.has(n)) return [];
    let out = known.get(n);
    if (!out) known.set(n, (out = await existing(n)));
    return out;
  };
  const added = new Map<string, string[]>();
  for (const e of edges) (added.get(e.taskUid) ?? added.set(e.taskUid, []).get(e.taskUid)!).push(e.blockerUid);
  const next = async (n: string): Promise<readonly string[]> => [...(await stored(n)), ...(added.get(n) ?? [])];
  if (!(await anyCycle([...added.keys()], next))) return [...edges];

  const kept: E[] = [];
  added.clear();
  for (const e of edges) {
    const cycle = await findCycle(e.taskUid, e.blockerUid, next);
    if (cycle) {
      warn(cycle, e);
      continue;
    }
    (added.get(e.taskUid) ?? added.set(e.taskUid, []).get(e.taskUid)!).push(e.blockerUid);
    kept.push(e);
  }
  return kept;
}

/** Whether the graph reachable from `starts` has a cycle: depth-first, iteratively (chains of thousands). */
async function anyCycle(starts: readonly string[], next: (n: string) => Promise<readonly string[]>): Promise<boolean> {
  const done = new Set<string>();
  const onPath = new Set<string>();
  for (const start of starts) {
    if (done.has(start)) continue;
    const stack: Array<{ node: string; out: readonly string[]; i: number }> = [{ node: start, out: await next(start), i: 0 }];
    onPath.add(start);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.i === top.out.length) {
        stack.pop();
        onPath.delete(top.node);
        done.add(top.node);
        continue;
      }
      const n = top.out[top.i++]!;
      if (onPath.has(n)) return true;
      if (done.has(n)) continue;
      onPath.add(n);
      stack.push({ node: n, out: await next(n), i: 0 });
    }
  }
  return false;
}
