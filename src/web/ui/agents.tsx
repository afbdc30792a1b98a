/** Agents at work: current claims with the paths they reserve and their lease countdown, and the live activity feed, newest first. */
import { useEffect, useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import type { ActivityEvent, PathsCheck, TaskList, TaskSummary } from '../lib/types.js';
import { ago, countdown } from './fields.js';

const VERBS: Record<string, string> = {
  'task.created': 'created',
  'task.updated': 'updated',
  'task.moved': 'moved',
  'task.completed': 'completed',
  'task.claimed': 'claimed',
  'task.claim_renewed': 'renewed the claim on',
  'task.claim_expired': 'saw the lease end on',
  'task.checkpoint': 'checkpointed',
  'task.released': 'released',
  'task.archived': 'archived',
  'task.unarchived': 'restored from the archive',
  'task.deleted': 'deleted',
  'task.restored': 'restored',
  'task.purged': 'purged',
  'dependency.added': 'added a blocker to',
  'dependency.removed': 'removed a blocker from',
  'checklist.updated': 'updated the checklist of',
  'comment.added': 'commented on',
  'project.created': 'created the project',
  'project.updated': 'updated the project',
  'project.archived': 'archived the project',
  'project.restored': 'restored the project',
};

function detail(e: ActivityEvent): string {
  const c = e.changes;
  if (e.type.endsWith('.created')) return '';
  if (c.status) return `${String(c.status.before ?? '—')} → ${String(c.status.after)}`;
  const fields = Object.keys(c).filter((f) => !['version', 'updatedAt', 'position'].includes(f));
  return fields.length ? fields.join(', ') : '';
}

export function ActivityList({ model, onOpen, limit = 100 }: { model: BoardModel; onOpen(id: string): void; limit?: number }) {
  return (
    <ol class="activity" aria-label="Recent activity, newest first">
      {model.activity.slice(0, limit).map((e) => (
        <li key={e.seq} class={Date.now() - Date.parse(e.at) < 8000 ? 'fresh-event' : ''}>
          <span class="actor">{e.actor}</span> {VERBS[e.type] ?? e.type}{' '}
          {e.taskId ? (
            <button class="link-btn" onClick={() => onOpen(e.taskId!)}>
              {e.taskId}
            </button>
          ) : (
            e.project
          )}
          {detail(e) && <span class="muted"> · {detail(e)}</span>}
          <time class="muted" dateTime={e.at}>
            {' '}
            · {ago(e.at)}
          </time>
        </li>
      ))}
      {model.activity.length === 0 && <li class="muted">No activity yet.</li>}
    </ol>
  );
}

/** Task id → the path patterns its live claim reserves. */
function reservedByTask(check: PathsCheck): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const h of check.held) map.set(h.task, [...(map.get(h.task) ?? []), h.reserved]);
  return map;
}

export function Agents({ model, onOpen }: { model: BoardModel; onOpen(id: string): void }) {
  const [claimed, setClaimed] = useState<TaskSummary[]>([]);
  const [reserves, setReserves] = useState(new Map<string, string[]>());
  const key = model.project?.key;
  useEffect(() => {
    if (!key) return;
    // Claiming or renewing updates the task, so live claims are among the most recently updated open tasks.
    void model.api.get<TaskList>('/tasks', { project: key, sort: 'updated', limit: 200 }).then(
      (r) => setClaimed(r.tasks.filter((t) => t.claim)),
      () => undefined,
    );
    // '**' overlaps every pattern: the answer names every live reservation but those of the board's own actor.
    void model.api.send<PathsCheck>('POST', '/paths/check', { paths: ['**'] }).then(
      (r) => setReserves(reservedByTask(r)),
      () => undefined,
    );
  }, [key, model.liveTick]);
  const live = claimed.filter((t) => Date.parse(t.claim!.expiresAt) > Date.now()).sort((a, b) => Date.parse(a.claim!.expiresAt) - Date.parse(b.claim!.expiresAt));
  return (
    <div class="agents">
      <section class="agents-claims" aria-labelledby="claims-h">
        <h2 id="claims-h">Claims ({live.length})</h2>
        {live.length === 0 && <p class="muted">No agent holds a card right now.</p>}
        <table class="claims">
          <caption class="sr-only">Cards held by agents, soonest lease end first</caption>
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Card</th>
              <th scope="col">Reserves</th>
              <th scope="col">Lease ends in</th>
            </tr>
          </thead>
          <tbody>
            {live.map((t) => (
              <tr key={t.id}>
                <td class="actor">{t.claim!.actor}</td>
                <td>
                  <button class="link-btn" onClick={() => onOpen(t.id)}>
                    {t.id} {t.title}
                  </button>
                </td>
                <td class="reserves">
                  {(reserves.get(t.id) ?? []).map((p) => (
                    <code key={p}>{p}</code>
                  ))}
                </td>
                <td class="lease" title={new Date(t.claim!.expiresAt).toLocaleString()}>
                  {countdown(t.claim!.expiresAt)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section class="agents-activity" aria-labelledby="act-h">
        <h2 id="act-h">Activity</h2>
        <ActivityList model={model} onOpen={onOpen} />
      </section>
    </div>
  );
}
