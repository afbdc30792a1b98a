/**
 * The MCP Apps views, made of the web board's own components: the board, one card, and the work in
 * progress (cards waiting for approval and the ready queue, beside the agents at work). Only the frame differs: no project switcher or
 * address bar, since the host decides what the view shows.
 */
import { useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import { useObservable } from '../lib/store.js';
import { Agents } from '../ui/agents.js';
import { Approvals } from '../ui/approvals.js';
import { Board } from '../ui/board.js';
import { Detail } from '../ui/detail.js';
import { FilterBar } from '../ui/filters.js';
import { NoticeBar } from '../ui/notice.js';
import { ReadyView } from '../ui/ready.js';

const FEED_TEXT = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', unauthorized: 'Refused' } as const;

function Bar({ model, title }: { model: BoardModel; title: string }) {
  return (
    <header class="topbar">
      <h1 class="brand">{title}</h1>
      {model.project && <span class="muted">{model.project.name}</span>}
      <span class={`feed feed-${model.feedState}`} role="status" title="Following the workspace's changes">
        {FEED_TEXT[model.feedState]}
      </span>
    </header>
  );
}

/** A card panel beside the view, opened from a card or a row. */
function WithPanel({ model, children }: { model: BoardModel; children: (open: (id: string) => void) => preact.ComponentChildren }) {
  const [task, setTask] = useState<string | null>(null);
  return (
    <>
      {!(task && model.notice?.taskId === task) && <NoticeBar model={model} onOpen={setTask} />}
      <main id="main" class={`main${task ? ' with-panel' : ''}`}>
        {model.loadError && (
          <p class="error" role="alert">
            {model.loadError}
          </p>
        )}
        {children(setTask)}
      </main>
      {task && <Detail key={task} model={model} id={task} onOpen={setTask} onClose={() => setTask(null)} />}
    </>
  );
}

export function BoardView({ model }: { model: BoardModel }) {
  useObservable(model);
  return (
    <div class="app view view-board">
      <Bar model={model} title={model.project ? `${model.project.key} board` : 'Cairn board'} />
      {model.project && <FilterBar model={model} />}
      <WithPanel model={model}>{(open) => <Board model={model} onOpen={open} />}</WithPanel>
    </div>
  );
}

export function CardView({ model, id }: { model: BoardModel; id: string }) {
  useObservable(model);
  // A dependency or child opened from the card replaces it; closing goes back to the one the tool showed.
  const [current, setCurrent] = useState(id);
  return (
    <div class="app view view-card">
      <Detail key={current} model={model} id={current} onOpen={setCurrent} onClose={() => setCurrent(id)} />
    </div>
  );
}

export function WorkView({ model }: { model: BoardModel }) {
  useObservable(model);
  return (
    <div class="app view view-work">
      <Bar model={model} title={model.project ? `${model.project.key}: ready and at work` : 'Ready and at work'} />
      <WithPanel model={model}>
        {(open) => (
          <div class="work-columns">
            <div class="work-queue">
              <Approvals model={model} />
              <ReadyView model={model} onOpen={open} />
            </div>
            <Agents model={model} onOpen={open} />
          </div>
        )}
      </WithPanel>
    </div>
  );
}
