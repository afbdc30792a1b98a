/** Notices: a refused edit (with the fresh card after a version conflict) or an error from the server. */
import type { BoardModel } from '../lib/model.js';

export function NoticeBar({ model, onOpen }: { model: BoardModel; onOpen(id: string): void }) {
  const n = model.notice;
  if (!n) return null;
  return (
    <div class={`notice notice-${n.kind}`} role="alert">
      <p>
        <strong>{n.kind === 'conflict' ? 'Version conflict. ' : n.kind === 'error' ? 'Error. ' : ''}</strong>
        {n.message}
      </p>
      {n.fresh && (
        <p class="fresh">
          Current card: <strong>{n.fresh.id}</strong> “{n.fresh.title}” — {n.fresh.status}, {n.fresh.priority} priority, version {n.fresh.version}
          {n.fresh.assignee ? `, assigned to ${n.fresh.assignee}` : ''}.{' '}
          <button class="link-btn" onClick={() => onOpen(n.fresh!.id)}>
            Open it
          </button>
        </p>
      )}
      <button
        class="icon-btn dismiss"
        aria-label="Dismiss"
        onClick={() => {
          model.notice = null;
          model.changed();
        }}
      >
        ×
      </button>
    </div>
  );
}
