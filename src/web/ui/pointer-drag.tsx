/**
 * Dragging with a finger or a pen (HTML5 drag and drop is mouse-only on most phones): the card's
 * grip captures the pointer, the lane and index under it are found from the lane's box and the row
 * height, and the drop is the same move as a mouse drop.
 */
import { useRef, useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import { ROW } from './card.js';

export interface DropHint {
  lane: string;
  index: number;
}

/** The lane and insertion index under a point, from the lanes' bodies. */
export function dropPoint(x: number, y: number): DropHint | null {
  const body = document.elementFromPoint(x, y)?.closest<HTMLElement>('.lane-body');
  const lane = body?.closest<HTMLElement>('[data-lane]')?.dataset.lane;
  if (!body || !lane) return null;
  const n = body.querySelector('.cards')?.getAttribute('data-count');
  const index = Math.round((y - body.getBoundingClientRect().top + body.scrollTop) / ROW);
  return { lane, index: Math.max(0, Math.min(Number(n ?? 0), index)) };
}

export function usePointerDrag(model: BoardModel) {
  const [hint, setHint] = useState<DropHint | null>(null);
  const [ghost, setGhost] = useState<{ id: string; title: string; x: number; y: number } | null>(null);
  const last = useRef<DropHint | null>(null);
  const show = (h: DropHint | null) => {
    const prev = last.current;
    last.current = h;
    if (prev?.lane !== h?.lane || prev?.index !== h?.index) setHint(h);
  };

  const start = (e: PointerEvent, id: string, title: string) => {
    if (e.pointerType === 'mouse') return; // the mouse drags the whole card (HTML5 drag and drop)
    e.preventDefault();
    const el = e.currentTarget as HTMLElement;
    el.setPointerCapture(e.pointerId);
    let pos = { x: e.clientX, y: e.clientY };
    const move = (ev: PointerEvent) => {
      pos = { x: ev.clientX, y: ev.clientY };
      setGhost({ id, title, ...pos });
      show(dropPoint(pos.x, pos.y));
    };
    // Near an edge the board (sideways) and the lane under the finger (up and down) scroll by themselves.
    let frame = requestAnimationFrame(function scroll() {
      const board = document.querySelector<HTMLElement>('.board');
      const edge = 40;
      const dx = pos.x < edge ? -12 : pos.x > innerWidth - edge ? 12 : 0;
      if (board && dx) board.scrollLeft += dx;
      const body = document.elementFromPoint(pos.x, pos.y)?.closest<HTMLElement>('.lane-body');
      if (body) {
        const r = body.getBoundingClientRect();
        const dy = pos.y < r.top + edge ? -12 : pos.y > r.bottom - edge ? 12 : 0;
        if (dy) body.scrollTop += dy;
      }
      if (dx || body) show(dropPoint(pos.x, pos.y) ?? last.current);
      frame = requestAnimationFrame(scroll);
    });
    const end = (ev: PointerEvent) => {
      cancelAnimationFrame(frame);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', end);
      el.removeEventListener('pointercancel', end);
      const at = ev.type === 'pointerup' ? (dropPoint(ev.clientX, ev.clientY) ?? last.current) : null;
      setGhost(null);
      setHint(null);
      last.current = null;
      if (!at) return;
      const from = model.findCard(id);
      let index = at.index;
      if (from && from.lane.status.name === at.lane && from.index < index) index--;
      if (from && from.lane.status.name === at.lane && from.index === index) return;
      const name = model.lane(at.lane)?.status.displayName ?? at.lane;
      void model.move(id, at.lane, index).then((ok) => ok && model.announce(`Moved ${id} to ${name}, position ${index + 1}.`));
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
    move(e);
  };

  const ghostView = ghost && (
    <div class="drag-ghost" style={{ transform: `translate(${ghost.x - 20}px, ${ghost.y - 20}px)` }} aria-hidden="true">
      {ghost.id} {ghost.title}
    </div>
  );
  return { start, hint, ghostView, dragging: ghost !== null };
}
