/** The board view: lanes in workflow order; moving cards with the keyboard (Alt + arrows) as well as by dragging. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import type { TaskSummary } from '../lib/types.js';
import { Lane, LANE_GAP, LANE_MIN } from './lane.js';
import { usePointerDrag } from './pointer-drag.js';

export function Board({ model, onOpen }: { model: BoardModel; onOpen(id: string): void }) {
  const [focusId, setFocusId] = useState<string | null>(null);
  const drag = usePointerDrag(model);
  // Finished lanes (done, canceled) fold to a narrow column when every lane would not fit at its
  // least width; a lane the user folded or unfolded stays so.
  const boardRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(Infinity);
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  useEffect(() => {
    const el = boardRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, [model.lanes.length > 0]);
  const crowded = width < model.lanes.length * (LANE_MIN + LANE_GAP);
  const isFolded = (name: string, category: string) => chosen[name] ?? (crowded && (category === 'done' || category === 'canceled'));
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
  if (!model.lanes.length) {
    // Behind the token prompt nothing is known yet: "no project" would be false.
    const text = model.needToken ? 'Waiting for a token…' : model.project ? 'Loading…' : 'No project yet. Create one with: cairn init --key KEY --name "Name"';
    return <p class="empty">{text}</p>;
  }
  return (
    <div
      ref={boardRef}
      class={`board${drag.dragging ? ' dragging' : ''}`}
      role="region"
      aria-label={`Board of ${model.project?.name ?? ''}. Arrow keys go from card to card; Alt and an arrow key moves the focused card.`}
    >
      {model.lanes.map((lane) => (
        <Lane
          key={lane.status.name}
          model={model}
          lane={lane}
          focusId={focusId}
          onOpen={onOpen}
          onKeyMove={keyMove}
          onKeyFocus={keyFocus}
          onGrip={drag.start}
          pointerDropAt={drag.hint?.lane === lane.status.name ? drag.hint.index : null}
          folded={isFolded(lane.status.name, lane.status.category)}
          onFold={(folded) => setChosen({ ...chosen, [lane.status.name]: folded })}
        />
      ))}
      {drag.ghostView}
    </div>
  );
}
