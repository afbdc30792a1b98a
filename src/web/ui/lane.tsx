/**
 * A lane: heading with its card count, quick add, and its cards, virtualised (only the rows in view
 * are in the DOM; cards have a fixed height) and paged from the server as it scrolls. Cards are
 * dropped here by index, computed from the pointer and the row height.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Form } from './form.js';
import type { BoardModel, Lane as LaneState } from '../lib/model.js';
import type { TaskSummary } from '../lib/types.js';
import { Card, ROW } from './card.js';

const OVERSCAN = 4;
/** A lane's least width and the gap after it (styles.css): the board folds finished lanes when the rest would not fit. */
export const LANE_MIN = 200;
export const LANE_GAP = 12;

export interface LaneProps {
  model: BoardModel;
  lane: LaneState;
  focusId: string | null;
  onOpen(id: string): void;
  onKeyMove(card: TaskSummary, dx: number, dy: number): void;
  onKeyFocus(card: TaskSummary, dx: number, dy: number): void;
  onGrip(e: PointerEvent, id: string, title: string): void;
  /** Where a finger or pen drag would drop in this lane. */
  pointerDropAt: number | null;
  /** Shown as a narrow column with its name and count; a card dropped on it goes to its top. */
  folded: boolean;
  onFold(folded: boolean): void;
}

export function Lane({ model, lane, focusId, onOpen, onKeyMove, onKeyFocus, onGrip, pointerDropAt, folded, onFold }: LaneProps) {
  const body = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 900 });
  const [mouseDropAt, setDropAt] = useState<number | null>(null);
  const dropAt = mouseDropAt ?? pointerDropAt;
  const [adding, setAdding] = useState(false);
  const addInput = useRef<HTMLInputElement>(null);
  // The browser honours autofocus only while the page loads: the field that "+" opens takes the focus here.
  useEffect(() => {
    if (adding) addInput.current?.focus();
  }, [adding]);
  const name = lane.status.name;
  const headingId = `lane-${name}`;

  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight || 900 });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [folded]);

  const n = lane.cards.length;
  const first = Math.max(0, Math.floor(view.top / ROW) - OVERSCAN);
  const last = Math.min(n, Math.ceil((view.top + view.height) / ROW) + OVERSCAN);
  useEffect(() => {
    if (lane.cursor && last >= n - 10) void model.loadMore(name);
  }, [last, n, lane.cursor]);

  // A focused card stays rendered even when scrolled away, so keyboard moves keep their focus.
  const focusIndex = focusId ? lane.cards.findIndex((c) => c.id === focusId) : -1;
  useEffect(() => {
    const el = body.current;
    if (!el || focusIndex < 0) return;
    if (focusIndex * ROW < el.scrollTop) el.scrollTop = focusIndex * ROW;
    else if ((focusIndex + 1) * ROW > el.scrollTop + el.clientHeight) el.scrollTop = (focusIndex + 1) * ROW - el.clientHeight;
  }, [focusIndex, focusId]);
  const rows: number[] = [];
  for (let i = first; i < last; i++) rows.push(i);
  if (focusIndex >= 0 && (focusIndex < first || focusIndex >= last)) rows.push(focusIndex);

  const indexAt = (clientY: number) => {
    const el = body.current!;
    const y = clientY - el.getBoundingClientRect().top + el.scrollTop;
    return Math.max(0, Math.min(n, Math.round(y / ROW)));
  };

  const count = (
    <span class="count" aria-label={`${lane.total} ${lane.total === 1 ? 'card' : 'cards'}`}>
      {lane.total}
    </span>
  );
  if (folded) {
    return (
      <section
        class="lane folded"
        aria-labelledby={headingId}
        data-lane={name}
        data-folded=""
        onDragOver={(e) => {
          if (!e.dataTransfer?.types.includes('text/x-cairn-card')) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
        }}
        onDrop={(e) => {
          e.preventDefault();
          const id = e.dataTransfer?.getData('text/x-cairn-card');
          if (id) void model.move(id, name, 0).then((ok) => ok && model.announce(`Moved ${id} to ${lane.status.displayName}.`));
        }}
      >
        <h2 id={headingId}>
          <button class="lane-unfold" aria-expanded="false" title={`Show the ${lane.status.displayName} lane`} onClick={() => onFold(false)}>
            <span class="dot" style={{ background: lane.status.color }} aria-hidden="true" />
            <span class="lane-name">{lane.status.displayName}</span>
            {count}
          </button>
        </h2>
      </section>
    );
  }
  return (
    <section class="lane" aria-labelledby={headingId} data-lane={name}>
      <header class="lane-head">
        <h2 id={headingId}>
          <span class="dot" style={{ background: lane.status.color }} aria-hidden="true" />
          {lane.status.displayName}
          {count}
        </h2>
        <span class="lane-actions">
          <button class="icon-btn" aria-expanded={adding} aria-label={`Add a card to ${lane.status.displayName}`} onClick={() => setAdding(!adding)}>
            +
          </button>
          <button class="icon-btn" aria-expanded="true" aria-label={`Fold the ${lane.status.displayName} lane`} title="Fold this lane" onClick={() => onFold(true)}>
            ‹
          </button>
        </span>
      </header>
      {adding && (
        <Form
          class="quick-add"
          onSubmit={async (form) => {
            const input = form.elements.namedItem('title') as HTMLInputElement;
            const title = input.value.trim();
            if (!title) return;
            input.disabled = true;
            const t = await model.quickAdd(name, title);
            input.disabled = false;
            if (t) input.value = '';
            // Back to the field for the next card, unless the user went on to another field while the
            // server answered (disabling the field left the focus on the page): taking it from there
            // would blur, and so save, what they were typing.
            const active = document.activeElement;
            if (active === input || active === document.body || active === null) input.focus();
          }}
        >
          <input
            ref={addInput}
            name="title"
            aria-label={`New card title in ${lane.status.displayName}`}
            placeholder="Title, then Enter"
            maxLength={200}
            onKeyDown={(e) => e.key === 'Escape' && setAdding(false)}
          />
        </Form>
      )}
      <div
        class={`lane-body${dropAt !== null ? ' drop-target' : ''}`}
        ref={body}
        onScroll={(e) => {
          const el = e.currentTarget as HTMLDivElement;
          setView({ top: el.scrollTop, height: el.clientHeight || 900 });
        }}
        onDragOver={(e) => {
          if (!e.dataTransfer?.types.includes('text/x-cairn-card')) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
          setDropAt(indexAt(e.clientY));
        }}
        onDragLeave={(e) => {
          if (!(e.currentTarget as HTMLElement).contains(e.relatedTarget as Node)) setDropAt(null);
        }}
        onDrop={(e) => {
          e.preventDefault();
          setDropAt(null);
          const id = e.dataTransfer?.getData('text/x-cairn-card');
          if (!id) return;
          let at = indexAt(e.clientY);
          const from = model.findCard(id);
          if (from && from.lane === lane && from.index < at) at--;
          if (from && from.lane === lane && from.index === at) return;
          void model.move(id, name, at).then((ok) => ok && model.announce(`Moved ${id} to ${lane.status.displayName}, position ${at + 1}.`));
        }}
      >
        <ol class="cards" aria-labelledby={headingId} data-count={n} style={{ height: `${(n + (lane.cursor ? 1 : 0)) * ROW}px` }}>
          {rows.map((i) => (
            <Card
              key={lane.cards[i]!.id}
              model={model}
              card={lane.cards[i]!}
              index={i}
              setSize={lane.total}
              focusId={focusId}
              onOpen={onOpen}
              onKeyMove={onKeyMove}
              onKeyFocus={onKeyFocus}
              onGrip={onGrip}
            />
          ))}
        </ol>
        {dropAt !== null && <div class="drop-line" style={{ transform: `translateY(${dropAt * ROW - 4}px)` }} aria-hidden="true" />}
        {n === 0 && !lane.cursor && <p class="empty">No cards</p>}
      </div>
    </section>
  );
}
