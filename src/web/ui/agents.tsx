/** Agents at work (placeholder). */
import type { BoardModel } from '../lib/model.js';

export function Agents(_: { model: BoardModel; onOpen(id: string): void }) {
  return <p class="empty">Agents at work is coming.</p>;
}
