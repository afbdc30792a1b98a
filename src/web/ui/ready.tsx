/** The Ready view: the project's ready queue in the server's order (priority, score, lane position, age). */
import { useEffect, useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import type { TaskSummary } from '../lib/types.js';

export function ReadyView({ model, onOpen }: { model: BoardModel; onOpen(id: string): void }) {
  const [tasks, setTasks] = useState<TaskSummary[] | null>(null);
  const [blocked, setBlocked] = useState<{ count: number; topBlockers: string[] } | null>(null);
  const key = model.project?.key;
  useEffect(() => {
    if (!key) return;
    void model.api.get<{ tasks: TaskSummary[]; blocked?: { count: number; topBlockers: string[] } }>('/ready', { project: key, limit: 100 }).then(
      (r) => {
        setTasks(r.tasks);
        setBlocked(r.blocked ?? null);
      },
      (err) => model.say('error', `Could not read the ready queue: ${(err as Error).message}`),
    );
  }, [key, model.liveTick]);
  if (!tasks) return <p class="empty">Loading…</p>;
  return (
    <section class="list-view" aria-labelledby="ready-title">
      <h2 id="ready-title">Ready to start ({tasks.length})</h2>
      <p class="hint">Todo cards whose blockers are all done and that nobody holds, in the order agents get them from next_tasks.</p>
      {tasks.length === 0 && <p class="empty">Nothing is ready{blocked?.count ? `: ${blocked.count} tasks wait on blockers (finish ${blocked.topBlockers.join(', ')} first)` : ''}.</p>}
      <ol class="ready-list">
        {tasks.map((t) => (
          <li key={t.id}>
            <button class="row-btn" onClick={() => onOpen(t.id)}>
              <span class="card-id">{t.id}</span>
              <span class="row-title">{t.title}</span>
              {t.priority !== 'none' && <span class={`prio prio-${t.priority}`}>{t.priority}</span>}
              <span class={`kind kind-${t.kind}`}>{t.kind}</span>
              {t.assignee && <span class="assignee">@{t.assignee}</span>}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
