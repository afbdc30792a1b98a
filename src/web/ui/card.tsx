/** One card on the board: id, kind, priority, ready marker, title, labels, assignee or live claim, checklist progress, blockers, and who just touched it. */
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import type { TaskSummary } from '../lib/types.js';

export const ROW = 128;

export interface CardProps {
  model: BoardModel;
  card: TaskSummary;
  index: number;
  setSize: number;
  focusId: string | null;
  onOpen(id: string): void;
  onKeyMove(card: TaskSummary, dx: number, dy: number): void;
  onKeyFocus(card: TaskSummary, dx: number, dy: number): void;
  onGrip(e: PointerEvent, id: string, title: string): void;
}

/** The server's open blockers, less any seen finishing since (a blocker on screen in a done lane is finished). */
export function openBlockers(model: BoardModel, t: TaskSummary): string[] {
  return (t.openBlockers ?? t.blockedBy).filter((b) => {
    const c = model.findCard(b)?.card;
    return !c || (c.statusCategory !== 'done' && c.statusCategory !== 'canceled');
  });
}

export function claimLive(t: TaskSummary): boolean {
  return !!t.claim && Date.parse(t.claim.expiresAt) > Date.now();
}

export function Card({ model, card: t, index, setSize, focusId, onOpen, onKeyMove, onKeyFocus, onGrip }: CardProps) {
  const btn = useRef<HTMLButtonElement>(null);
  // A layout effect: a keyed re-order moves DOM nodes, which blurs the focused one; focus comes back
  // in the same task, before the next key press is handled.
  useLayoutEffect(() => {
    // Follow the card with the focus only while the keyboard is on the board (never steal it from a field).
    const active = document.activeElement;
    if (focusId === t.id && (active === document.body || active?.closest('.board'))) btn.current?.focus();
  }, [focusId, t.id, t.status, index]);
  const blockers = t.statusCategory === 'done' || t.statusCategory === 'canceled' ? [] : openBlockers(model, t);
  const by = model.touchedBy(t.id);
  const progress = t.checklistProgress;
  const descId = `card-desc-${t.id}`;
  return (
    <li
      class={`card${by ? ' touched' : ''}`}
      data-card={t.id}
      aria-setsize={setSize}
      aria-posinset={index + 1}
      style={{ transform: `translateY(${index * ROW}px)` }}
      draggable
      onDragStart={(e) => {
        e.dataTransfer!.setData('text/x-cairn-card', t.id);
        e.dataTransfer!.effectAllowed = 'move';
      }}
    >
      <div class="card-top">
        <span class="card-id">{t.id}</span>
        <span class={`kind kind-${t.kind}`}>{t.kind}</span>
        {t.priority !== 'none' && <span class={`prio prio-${t.priority}`}>{t.priority}</span>}
        {t.isReady && (
          <span class="ready" title="Ready: every blocker is done and nobody holds it">
            ready
          </span>
        )}
        {by && (
          <span class="touched-by" title="Changed in the last seconds">
            {by}
          </span>
        )}
        {/* A grip for fingers and pens; keyboards use Alt + arrows, mice drag the whole card. */}
        <span class="grip" aria-hidden="true" title="Drag to move" onPointerDown={(e) => onGrip(e, t.id, t.title)}>
          ⠿
        </span>
      </div>
      <button
        ref={btn}
        class="card-title"
        aria-describedby={descId}
        onClick={() => onOpen(t.id)}
        onKeyDown={(e) => {
          const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
          if (!d) return;
          e.preventDefault();
          // Alt + arrow moves the card; an arrow alone moves the focus to the neighbouring card.
          if (e.altKey) onKeyMove(t, d[0]!, d[1]!);
          else onKeyFocus(t, d[0]!, d[1]!);
        }}
      >
        {t.title}
      </button>
      <div class="card-meta" id={descId}>
        {t.labels.length > 0 && (
          <span class="labels">
            {t.labels.map((l) => (
              <span class="label" key={l}>
                {l}
              </span>
            ))}
          </span>
        )}
        <span class="card-bottom">
          {claimLive(t) ? (
            <span class="claim" title={`Claimed until ${new Date(t.claim!.expiresAt).toLocaleTimeString()}`}>
              claimed by {t.claim!.actor}
            </span>
          ) : t.assignee ? (
            <span class="assignee">@{t.assignee}</span>
          ) : null}
          {progress.total > 0 && (
            <span class="progress" title="Checklist">
              ☑ {progress.done}/{progress.total}
            </span>
          )}
          {blockers.length > 0 && (
            <span class="waits" title="Unfinished blockers: the card is not ready until they are done. The Blocked lane is for work held up by something else.">
              Waits on {blockers.join(', ')}
            </span>
          )}
        </span>
      </div>
    </li>
  );
}
