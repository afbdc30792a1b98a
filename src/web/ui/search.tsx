/** Search (placeholder). */
import type { BoardModel } from '../lib/model.js';

export function SearchBox(_: { model: BoardModel; onOpen(id: string): void }) {
  return null;
}
