/** Ready-queue order as a comparator: priority, then score, then lane position, then age (oldest first). */

export interface OrderKey {
  priorityRank: number;
  score: number;
  position: number;
  createdAt: string;
  /** Final tie-break so the order is total. */
  uid: string;
}

export function compareReadyOrder(a: OrderKey, b: OrderKey): number {
  return (
    b.priorityRank - a.priorityRank ||
    b.score - a.score ||
    a.position - b.position ||
    (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0) ||
    (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0)
  );
}
