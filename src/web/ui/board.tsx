/** The board view: lanes in workflow order; moving cards with the keyboard (Alt + arrows) as well as by dragging. */
import { useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import type { TaskSummary } from '../lib/types.js';
import { Lane } from './lane.js';
import { usePointerDrag } from './pointer-drag.js';

export function Board({ model, onOpen }: { model: BoardModel; onOpen(id: string): void }) {
  const [focusId, setFocusId] = useState<string | null>(null);
  const drag = usePointerDrag(model);
  const keyMove = (card: TaskSummary, dx: number, dy: number) => {
    const from = model.findCard(card.id);
    if (!from) return;
    const li = model.lanes.indexOf(from.lane);
    const to = model.lanes[li + dx];
    if (!to) return;
    const index = dx ? Math.min(from.index, to.cards.length) : from.index + dy;
    if (index < 0 || (!dx && index >= from.lane.cards.length)) return;
    setFocusId(card.id);
    void model.move(card.id, to.status.name, index).then((ok) => {
      if (ok) model.announce(`Moved ${card.id} to ${to.status.displayName}, position ${index + 1} of ${to.total}.`);
    });
  };
  const keyFocus = (card: TaskSummary, dx: number, dy: number) => {
    const from = model.findCard(card.id);
    if (!from) return;
    let li = model.lanes.indexOf(from.lane) + dx;
    // Sideways skips empty lanes.
    while (dx && model.lanes[li] && !model.lanes[li]!.cards.length) li += dx;
    const to = model.lanes[li];
    const target = to?.cards[dx ? Math.min(from.index, to.cards.length - 1) : from.index + dy];
    if (target) setFocusId(target.id);
  };
  if (!model.lanes.length) return <p class="empty">{model.project ? 'Loading…' : 'No project yet. Create one with: cairn init --key KEY --name "Name"'}</p>;
  return (
    <div class={`board${drag.dragging ? ' dragging' : ''}`} role="region" aria-label={`Board of ${model.project?.name ?? ''}. Arrow keys go from card to card; Alt and an arrow key moves the focused card.`}>
      {model.lanes.map((lane) => (
        <Lane key={lane.status.name} model={model} lane={lane} focusId={focusId} onOpen={onOpen} onKeyMove={keyMove} onKeyFocus={keyFocus}
          onGrip={drag.start} pointerDropAt={drag.hint?.lane === lane.status.name ? drag.hint.index : null} />
      ))}
      {drag.ghostView}
    </div>
  );
}
