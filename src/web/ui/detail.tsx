/** Card detail (placeholder). */
import type { BoardModel } from '../lib/model.js';

export function Detail({ id, onClose }: { model: BoardModel; id: string; onOpen(id: string): void; onClose(): void }) {
  return (
    <aside class="panel" role="dialog" aria-label={`Card ${id}`}>
      <button onClick={onClose}>Close</button>
    </aside>
  );
}
