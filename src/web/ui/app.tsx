/** The board application: header (project, views, search, connection), notices, the current view, the card panel and the token prompt. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { BoardModel } from '../lib/model.js';
import { useObservable } from '../lib/store.js';
import { Agents } from './agents.js';
import { Board } from './board.js';
import { Detail } from './detail.js';
import { FilterBar } from './filters.js';
import { Graph } from './graph.js';
import { NoticeBar } from './notice.js';
import { ReadyView } from './ready.js';
import { SearchBox } from './search.js';
import { TokenPrompt } from './token-prompt.js';

const VIEWS = [
  ['board', 'Board'],
  ['ready', 'Ready'],
  ['graph', 'Graph'],
  ['agents', 'Agents at work'],
] as const;
type View = (typeof VIEWS)[number][0];

interface Route {
  project: string | null;
  view: View;
  task: string | null;
}

/** `#/KEY/view[/TASK-ID]`: the address of what is on screen, so it survives a reload and can be shared. */
function parseHash(): Route {
  const [project, view, task] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  return { project: project || null, view: VIEWS.some(([v]) => v === view) ? (view as View) : 'board', task: task || null };
}

function toHash(r: Route): string {
  return `#/${[r.project ?? '', r.view, ...(r.task ? [r.task] : [])].map(encodeURIComponent).join('/')}`;
}

const FEED_TEXT = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', unauthorized: 'Token needed' } as const;

export function App() {
  const model = useMemo(() => new BoardModel(api), []);
  useObservable(model);
  const [route, setRoute] = useState<Route>(parseHash);
  useEffect(() => {
    const onHash = () => setRoute(parseHash());
    addEventListener('hashchange', onHash);
    void model.start(route.project);
    // Touched-card highlights and lease countdowns age with the clock.
    const tick = setInterval(() => model.changed(), 1000);
    (window as unknown as { cairnBoard: BoardModel }).cairnBoard = model;
    return () => {
      removeEventListener('hashchange', onHash);
      clearInterval(tick);
    };
  }, []);
  const go = (r: Partial<Route>) => {
    const next = { ...route, project: model.project?.key ?? route.project, ...r };
    location.hash = toHash(next);
    setRoute(next);
  };
  useEffect(() => {
    if (route.project && model.project && route.project !== model.project.key)
      model.openProject(route.project).catch((err) => model.say('error', `Could not open ${route.project}: ${(err as Error).message}`));
  }, [route.project]);
  useEffect(() => {
    if (model.project && route.project !== model.project.key) history.replaceState(null, '', toHash({ ...route, project: model.project.key }));
  }, [model.project?.key]);

  const open = (id: string) => go({ task: id });
  // While the token prompt is up, the page behind it takes no focus or clicks.
  const blocked = model.needToken ? { inert: true } : {};
  return (
    <div class="app">
      <header class="topbar" {...blocked}>
        <h1 class="brand">Cairn</h1>
        <label class="project-switch" for="project-select">
          <span class="sr-only">Project</span>
          <select id="project-select" value={model.project?.key ?? ''} onChange={(e) => go({ project: (e.currentTarget as HTMLSelectElement).value, task: null })}>
            {model.projects.map((p) => (
              <option key={p.key} value={p.key}>
                {p.key} — {p.name}
              </option>
            ))}
          </select>
        </label>
        <nav class="views" aria-label="Views">
          {VIEWS.map(([v, label]) => (
            <a key={v} href={toHash({ ...route, view: v, task: null })} aria-current={route.view === v ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <SearchBox model={model} onOpen={open} />
        <span class={`feed feed-${model.feedState}`} role="status" title="Connection to the change feed">
          {FEED_TEXT[model.feedState]}
        </span>
      </header>
      {route.view === 'board' && model.project && <FilterBar model={model} />}
      {/* A notice about the card in the panel is shown there, once. */}
      {!(route.task && model.notice?.taskId === route.task) && <NoticeBar model={model} onOpen={open} />}
      <main id="main" class={`main${route.task ? ' with-panel' : ''}`} {...blocked}>
        {model.loadError && (
          <p class="error" role="alert">
            {model.loadError}
          </p>
        )}
        {route.view === 'board' && <Board model={model} onOpen={open} />}
        {route.view === 'ready' && <ReadyView model={model} onOpen={open} />}
        {route.view === 'graph' && <Graph model={model} onOpen={open} />}
        {route.view === 'agents' && <Agents model={model} onOpen={open} />}
      </main>
      {route.task && (
        <Detail
          key={route.task}
          model={model}
          id={route.task}
          onOpen={open}
          onClose={() => {
            const id = route.task;
            // A notice about this card was read in its panel.
            if (model.notice?.taskId === id) model.notice = null;
            go({ task: null });
            // Back to the card the panel was opened from, when it is on screen.
            requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-card="${CSS.escape(id ?? '')}"] .card-title`)?.focus());
          }}
        />
      )}
      {model.needToken && <TokenPrompt model={model} />}
      <div class="sr-only" aria-live="polite">
        {model.announcement}
      </div>
    </div>
  );
}
