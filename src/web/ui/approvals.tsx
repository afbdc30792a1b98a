/**
 * Approvals: the cards agents put up for review (a lane whose name says "review"), each with what a
 * person decides. Approve completes the card; Send back returns it to the first working lane with
 * the reason as a comment, so the agent that picks it up again reads why.
 */
import { useEffect, useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import type { Status, Task, TaskList, TaskSummary } from '../lib/types.js';
import { Form } from './form.js';

/** Lanes where work waits for a person: work-in-progress lanes named for review ("review", "in_review", "human_needs_to_review"). */
export function reviewLanes(statuses: readonly Status[]): Status[] {
  return statuses.filter((s) => s.category === 'in_progress' && /review/.test(s.name));
}

function Decision({ model, task, back }: { model: BoardModel; task: TaskSummary; back: Status | undefined }) {
  const [reason, setReason] = useState<string | null>(null);
  const enc = encodeURIComponent(task.id);
  const act = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
      model.announce(`${task.id}: ${what}`);
      await model.refresh([task.id]);
    } catch (err) {
      await model.failed(err, task.id, what);
    }
  };
  const approve = () => act('approved', () => model.api.send<{ task: Task }>('POST', `/tasks/${enc}/complete`, { expectedVersion: task.version }));
  const sendBack = (why: string) =>
    act('sent back', async () => {
      await model.api.send('POST', `/tasks/${enc}/comments`, { body: `Sent back from review: ${why}` });
      await model.api.send<{ task: Task }>('PATCH', `/tasks/${enc}`, { status: back!.name });
    });
  return (
    <li class="approval" data-approval={task.id}>
      <div class="approval-head">
        <span class="card-id">{task.id}</span>
        <span class="row-title">{task.title}</span>
        {task.claim && <span class="assignee">by {task.claim.actor}</span>}
        {!task.claim && task.assignee && <span class="assignee">@{task.assignee}</span>}
        {task.checklistProgress.total > 0 && (
          <span class="muted">
            ☑ {task.checklistProgress.done}/{task.checklistProgress.total}
          </span>
        )}
      </div>
      {reason === null ? (
        <div class="row actions" role="group" aria-label={`Decide on ${task.id}`}>
          <button class="primary" onClick={() => void approve()}>
            Approve
          </button>
          {back && (
            <button class="secondary" onClick={() => setReason('')}>
              Send back
            </button>
          )}
        </div>
      ) : (
        <Form
          class="row"
          onSubmit={() => {
            if (reason.trim()) void sendBack(reason.trim()).then(() => setReason(null));
          }}
        >
          <label class="sr-only" for={`why-${task.id}`}>
            Why {task.id} goes back
          </label>
          <input id={`why-${task.id}`} value={reason} placeholder="What is missing?" required onInput={(e) => setReason((e.currentTarget as HTMLInputElement).value)} />
          <button class="primary" type="submit">
            Send back to {back!.displayName}
          </button>
          <button class="secondary" type="button" onClick={() => setReason(null)}>
            Cancel
          </button>
        </Form>
      )}
    </li>
  );
}

export function Approvals({ model }: { model: BoardModel }) {
  const [waiting, setWaiting] = useState<TaskSummary[] | null>(null);
  const project = model.project;
  const lanes = project ? reviewLanes(project.statuses) : [];
  useEffect(() => {
    if (!project || lanes.length === 0) return;
    void Promise.all(lanes.map((s) => model.api.get<TaskList>('/tasks', { project: project.key, status: s.name, sort: 'updated', limit: 50 }))).then(
      (pages) => setWaiting(pages.flatMap((p) => p.tasks)),
      (err) => model.say('error', `Could not read the cards in review: ${(err as Error).message}`),
    );
  }, [project?.key, model.liveTick]);
  if (!project || lanes.length === 0) return null;
  // Back to where the work is done: the first work-in-progress lane that is not a review lane.
  const back = project.statuses.find((s) => s.category === 'in_progress' && !lanes.includes(s));
  return (
    <section class="approvals" aria-labelledby="approvals-h">
      <h2 id="approvals-h">Waiting for approval ({waiting?.length ?? '…'})</h2>
      {waiting?.length === 0 && <p class="muted">Nothing waits in {lanes.map((l) => l.displayName).join(' or ')}.</p>}
      <ul class="approval-list">
        {(waiting ?? []).map((t) => (
          <Decision key={`${t.id}:${t.version}`} model={model} task={t} back={back} />
        ))}
      </ul>
    </section>
  );
}
