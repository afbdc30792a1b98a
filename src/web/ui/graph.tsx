/** The dependency graph view (placeholder until the layout lands). */
import type { BoardModel } from '../lib/model.js';

export function Graph(_: { model: BoardModel; onOpen(id: string): void }) {
  return <p class="empty">The dependency graph is coming.</p>;
}
