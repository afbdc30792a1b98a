/** The card panel: every field of a task, editable, re-read live when anyone changes it. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import { KINDS, PRIORITIES, type ActivityEvent, type Task } from '../lib/types.js';
import { Checklist, Comments, Coordination, Dependencies, History, LinksSection, type PanelApi, Relations } from './detail-sections.js';
import { countdown, Description, EditSelect, EditText } from './fields.js';
import { NoticeBar } from './notice.js';

/** Complete, claim, archive, delete, and the way back (restore). */
function Actions({ task, model, change }: { task: Task; model: BoardModel; change: PanelApi['change'] }) {
  const enc = encodeURIComponent(task.id);
  const [armed, setArmed] = useState(false);
  const post =
    (what: string, path: string, body: Record<string, unknown> = {}) =>
    () =>
      void change(what, () => model.api.send<{ task: Task }>('POST', `/tasks/${enc}${path}`, body));
  if (task.deletedAt || task.archivedAt) {
    return (
      <p class="status-line" role="status">
        <strong>{task.deletedAt ? 'Deleted' : 'Archived'}</strong>: it is off the board.{' '}
        <button class="secondary" onClick={task.deletedAt ? post('restore', '/restore') : post('restore', '/archive', { restore: true })}>
          Restore
        </button>
      </p>
    );
  }
  const finished = task.statusCategory === 'done' || task.statusCategory === 'canceled';
  return (
    <div class="row actions" role="group" aria-label="Actions">
      {!finished && (
        <button class="primary" onClick={post('completion', '/complete', { expectedVersion: task.version })}>
          Complete
        </button>
      )}
      {!finished && !task.claim && (
        <button class="secondary" onClick={post('claim', '/claim')}>
          Claim
        </button>
      )}
      <button class="secondary" onClick={post('archive', '/archive')}>
        Archive
      </button>
      {/* Asked on the button itself, not with confirm(): an MCP host's sandbox blocks dialogs. */}
      <button
        class="secondary danger"
        onClick={() => {
          setArmed(!armed);
          if (armed) void change('deletion', () => model.api.send<{ task: Task }>('DELETE', `/tasks/${enc}`));
        }}
        onBlur={() => setArmed(false)}
      >
        {armed ? `Delete ${task.id}? Click again (it can be restored)` : 'Delete'}
      </button>
    </div>
  );
}

export function Detail({ model, id, onOpen, onClose }: { model: BoardModel; id: string; onOpen(id: string): void; onClose(): void }) {
  const [task, setTask] = useState<Task | null>(null);
  const [history, setHistory] = useState<ActivityEvent[]>([]);
  const [missing, setMissing] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  const enc = encodeURIComponent(id);

  const load = async () => {
    try {
      const [t, h] = await Promise.all([model.api.get<{ task: Task }>(`/tasks/${enc}`), model.api.get<{ events: ActivityEvent[] }>(`/tasks/${enc}/history`, { limit: 100 })]);
      // A re-read started before this panel's own change answered must not put the older card back
      // (the next edit would then carry a stale version and be refused as a conflict).
      setTask((shown) => (shown && shown.id === t.task.id && shown.version > t.task.version ? shown : t.task));
      setHistory(h.events);
    } catch (err) {
      setMissing((err as Error).message);
    }
  };
  useEffect(() => {
    void load();
    panel.current?.focus();
  }, [id]);
  // Someone else changed it: show the new state (open drafts keep their base version and will conflict).
  useEffect(() => {
    if (model.lastChanged.has(id)) void load();
  }, [model.liveTick]);

  const change: PanelApi['change'] = async (what, run) => {
    try {
      const { task: t } = await run();
      setTask(t);
      model.place(t.id, t);
      model.changed();
      void model.api.get<{ events: ActivityEvent[] }>(`/tasks/${enc}/history`, { limit: 100 }).then(
        (h) => setHistory(h.events),
        () => undefined,
      );
      return true;
    } catch (err) {
      await model.failed(err, id, what);
      await load();
      return false;
    }
  };
  const patch = (what: string, body: Record<string, unknown>, base = task!.version) => change(what, () => model.api.send<{ task: Task }>('PATCH', `/tasks/${enc}`, { ...body, expectedVersion: base }));

  const statuses = model.projects.find((p) => p.key === task?.project)?.statuses ?? model.project?.statuses ?? [];
  const live = task?.claim && Date.parse(task.claim.expiresAt) > Date.now() ? task.claim : null;
  return (
    <aside
      class="panel"
      ref={panel}
      tabIndex={-1}
      role="dialog"
      aria-modal="false"
      aria-labelledby="panel-title"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <header class="panel-head">
        <h2 id="panel-title">
          {id}
          {task && <span class="muted"> · version {task.version}</span>}
        </h2>
        <button class="icon-btn" aria-label="Close the card panel" onClick={onClose}>
          ×
        </button>
      </header>
      {model.notice?.taskId === id && <NoticeBar model={model} onOpen={onOpen} />}
      {missing && <p class="error">{missing}</p>}
      {task && (
        <div class="panel-body">
          <EditText id="f-title" label="Title" value={task.title} version={task.version} maxLength={200} onSave={(v, base) => patch('title change', { title: v }, base)} />
          <div class="field-grid">
            <EditSelect id="f-status" label="Status" value={task.status} options={statuses.map((s) => [s.name, s.displayName] as const)} onChange={(v) => void patch('status change', { status: v })} />
            <EditSelect id="f-priority" label="Priority" value={task.priority} options={PRIORITIES.map((p) => [p, p] as const)} onChange={(v) => void patch('priority change', { priority: v })} />
            <EditSelect id="f-kind" label="Kind" value={task.kind} options={KINDS.map((k) => [k, k] as const)} onChange={(v) => void patch('kind change', { kind: v })} />
            <EditText
              id="f-assignee"
              label="Assignee"
              value={task.assignee ?? ''}
              version={task.version}
              placeholder="e.g. agent:claude-1"
              onSave={(v, base) => patch('assignee change', { assignee: v.trim() || null }, base)}
            />
          </div>
          <EditText
            id="f-labels"
            label="Labels (comma-separated)"
            value={task.labels.join(', ')}
            version={task.version}
            onSave={(v, base) =>
              patch(
                'label change',
                {
                  labels: v
                    .split(',')
                    .map((s) => s.trim())
                    .filter(Boolean),
                },
                base,
              )
            }
          />
          <p class="status-line">
            {task.isReady && <span class="ready">ready</span>}{' '}
            {live ? (
              <span class="claim">
                Claimed by {live.actor}, lease ends in <span class="lease">{countdown(live.expiresAt)}</span>
                {live.where && (
                  <span class="muted">
                    {' '}
                    · from {live.where.worktree}
                    {live.where.branch ? ` on ${live.where.branch}` : ''}
                    {live.where.head ? ` at ${live.where.head.slice(0, 10)}` : ''}
                  </span>
                )}
              </span>
            ) : (
              <span class="muted">Not claimed.</span>
            )}{' '}
            {live && (
              <>
                {/* The board acts as one actor (`user`, or its token's): taking over is how a person steps in for a stuck agent; history records it. */}
                <button class="secondary" onClick={() => void change('takeover', () => model.api.send<{ task: Task }>('POST', `/tasks/${enc}/claim`, { takeover: true, force: true }))}>
                  Take over
                </button>{' '}
                <button class="secondary" onClick={() => void change('release', () => model.api.send('POST', `/tasks/${enc}/release`, { force: true }))}>
                  Release claim
                </button>
              </>
            )}
          </p>
          <Actions task={task} model={model} change={change} />
          <Coordination task={task} />
          <Description value={task.description} version={task.version} onSave={(v, base) => patch('description change', { description: v }, base)} />
          <Checklist task={task} model={model} change={change} onOpen={onOpen} />
          <Dependencies task={task} model={model} change={change} onOpen={onOpen} />
          <Relations task={task} model={model} change={change} onOpen={onOpen} patch={patch} />
          <LinksSection task={task} patch={patch} />
          <Comments task={task} model={model} change={change} onOpen={onOpen} />
          <History events={history} />
        </div>
      )}
    </aside>
  );
}
