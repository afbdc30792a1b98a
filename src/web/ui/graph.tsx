/**
 * The dependency graph of a project: tasks that block or wait on others, in columns by depth (a
 * task sits right of everything that blocks it). Nodes are buttons that open the card; the
 * arrows are drawn in an SVG underneath.
 */
import { useEffect, useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import type { TaskList, TaskSummary } from '../lib/types.js';

const W = 210;
const H = 58;
const GAP_X = 70;
const GAP_Y = 14;
const MAX_PAGES = 10;

interface Laid {
  nodes: Array<{ t: TaskSummary; x: number; y: number }>;
  edges: Array<{ from: string; to: string }>;
  width: number;
  height: number;
}

/** Longest-path layering; ties in a column ordered by lane category, then id. */
export function layout(tasks: TaskSummary[]): Laid {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const inGraph = tasks.filter((t) => t.blockedBy.some((b) => byId.has(b)) || t.blocks.some((b) => byId.has(b)));
  const depth = new Map<string, number>();
  const visit = (id: string, seen: Set<string>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const t = byId.get(id)!;
    const d = Math.max(-1, ...t.blockedBy.filter((b) => byId.has(b)).map((b) => visit(b, seen))) + 1;
    depth.set(id, d);
    return d;
  };
  inGraph.forEach((t) => visit(t.id, new Set()));
  const columns: TaskSummary[][] = [];
  for (const t of inGraph) (columns[depth.get(t.id)!] ??= []).push(t);
  const order = ['in_progress', 'todo', 'blocked', 'backlog', 'done', 'canceled'];
  const num = (id: string) => Number(id.split('-').pop());
  const nodes: Laid['nodes'] = [];
  columns.forEach((col, c) => {
    col.sort((a, b) => order.indexOf(a.statusCategory) - order.indexOf(b.statusCategory) || num(a.id) - num(b.id));
    col.forEach((t, r) => nodes.push({ t, x: c * (W + GAP_X), y: r * (H + GAP_Y) }));
  });
  const edges = inGraph.flatMap((t) => t.blockedBy.filter((b) => byId.has(b)).map((b) => ({ from: b, to: t.id })));
  const rows = Math.max(0, ...columns.map((c) => c.length));
  return { nodes, edges, width: columns.length * (W + GAP_X), height: rows * (H + GAP_Y) };
}

export function Graph({ model, onOpen }: { model: BoardModel; onOpen(id: string): void }) {
  const [tasks, setTasks] = useState<TaskSummary[] | null>(null);
  const [more, setMore] = useState(false);
  const key = model.project?.key;
  useEffect(() => {
    if (!key) return;
    let stop = false;
    void (async () => {
      const all: TaskSummary[] = [];
      let cursor: string | null | undefined;
      for (let page = 0; page < MAX_PAGES && cursor !== null; page++) {
        const r = await model.api.get<TaskList>('/tasks', { project: key, includeDone: true, sort: 'id', limit: 200, cursor: cursor ?? undefined });
        all.push(...r.tasks);
        cursor = r.nextCursor;
      }
      if (!stop) {
        setTasks(all);
        setMore(cursor !== null);
      }
    })().catch((err) => model.say('error', `Could not read the graph: ${(err as Error).message}`));
    return () => {
      stop = true;
    };
  }, [key, model.liveTick]);
  if (!tasks) return <p class="empty">Loading…</p>;
  const g = layout(tasks);
  const at = new Map(g.nodes.map((n) => [n.t.id, n]));
  const color = (s: string) => model.project?.statuses.find((x) => x.name === s)?.color ?? '#888';
  return (
    <section class="graph-view" aria-labelledby="graph-h">
      <h2 id="graph-h">Dependencies of {model.project?.name}</h2>
      <p class="hint">
        Each arrow points from a blocker to the task that waits for it. {g.nodes.length} of {tasks.length} tasks have dependencies{more ? ' (first 2,000 tasks read)' : ''}.
      </p>
      {g.nodes.length === 0 ? (
        <p class="empty">No dependencies in this project yet. Add one in a card's panel.</p>
      ) : (
        <div class="graph" style={{ width: `${g.width}px`, height: `${g.height}px` }}>
          <svg width={g.width} height={g.height} aria-hidden="true">
            <defs>
              <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
              </marker>
            </defs>
            {g.edges.map((e) => {
              const a = at.get(e.from)!;
              const b = at.get(e.to)!;
              const x1 = a.x + W;
              const y1 = a.y + H / 2;
              const x2 = b.x;
              const y2 = b.y + H / 2;
              const mx = (x1 + x2) / 2;
              return <path key={`${e.from}>${e.to}`} class="edge" d={`M ${x1} ${y1} C ${mx} ${y1}, ${mx} ${y2}, ${x2} ${y2}`} marker-end="url(#arrow)" />;
            })}
          </svg>
          <ul class="graph-nodes" aria-label="Tasks with dependencies">
            {g.nodes.map(({ t, x, y }) => (
              <li key={t.id} style={{ transform: `translate(${x}px, ${y}px)`, borderLeftColor: color(t.status) }} class={`node cat-${t.statusCategory}`}>
                <button class="node-btn" onClick={() => onOpen(t.id)}>
                  <span class="card-id">{t.id}</span> <span class="muted">{t.status}</span>
                  <span class="node-title">{t.title}</span>
                  <span class="sr-only">
                    {t.blockedBy.length ? `, waits on ${t.blockedBy.join(', ')}` : ''}
                    {t.blocks.length ? `, blocks ${t.blocks.join(', ')}` : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
