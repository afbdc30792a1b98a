/** Cycle detection over a directed graph given as a neighbour lookup; returns the path that would close a loop. */

/**
 * Would adding the edge `from → to` create a cycle? Returns the cycle path
 * (`[from, to, …, from]`) or null. `next(n)` lists the nodes `n` points to.
 */
export async function findCycle(from: string, to: string, next: (node: string) => Promise<readonly string[]>): Promise<string[] | null> {
  if (from === to) return [from, from];
  // Breadth-first from `to`, remembering parents, until we reach `from`.
  const parent = new Map<string, string>([[to, '']]);
  let frontier = [to];
  while (frontier.length > 0) {
    const nextFrontier: string[] = [];
    for (const node of frontier) {
      for (const n of await next(node)) {
        if (parent.has(n)) continue;
        parent.set(n, node);
        if (n === from) {
          const path = [from];
          for (let cur = node; cur !== ''; cur = parent.get(cur)!) path.push(cur);
          path.push(from);
          // path is from ← … ← to ← from reversed; rebuild forward: from → to → … → from
          const back = path.slice(1, -1).reverse();
          return [from, ...back, from];
        }
        nextFrontier.push(n);
      }
    }
    frontier = nextFrontier;
  }
  return null;
}
