/** Sections of the card panel: coordination, checklist, dependencies, parent and children, links, comments, history. */
import { useEffect, useState } from 'preact/hooks';
import { isSafeUrl } from '../../core/rules/safe-url.js';
import { renderExcerpt, renderMarkdown } from '../lib/markdown.js';
import type { BoardModel } from '../lib/model.js';
import type { ActivityEvent, Checkpoint, Evidence, SearchResult, Task, TaskSummary } from '../lib/types.js';
import { ago, EditText, type Save } from './fields.js';
import { Form } from './form.js';

/** What the card panel (detail.tsx) hands each section. */
export interface PanelApi {
  task: Task;
  model: BoardModel;
  /** Runs a change; on success shows the returned task, on failure reports it (a conflict with the fresh card). */
  change(what: string, run: () => Promise<{ task: Task }>): Promise<boolean>;
  onOpen(id: string): void;
}

type SectionProps = PanelApi;

function EvidenceLine({ evidence }: { evidence: Evidence | null }) {
  const status = evidence?.status ?? 'none';
  return (
    <p class="evidence">
      <strong>Evidence</strong> <span class={`badge ${status}`}>{status}</span>
      {evidence?.commit && <code> {evidence.commit.slice(0, 12)}</code>}
      {evidence?.prUrl && isSafeUrl(evidence.prUrl, { schemes: ['http:', 'https:'] }) && (
        <>
          {' '}
          <a href={evidence.prUrl} target="_blank" rel="noopener noreferrer">
            Pull request
          </a>
        </>
      )}
      {evidence?.test && (
        <span class="muted">
          {' '}
          · <code>{evidence.test.command}</code> exited {evidence.test.exitCode}
        </span>
      )}
    </p>
  );
}

function CheckpointNote({ checkpoint: c }: { checkpoint: Checkpoint }) {
  return (
    <div class="checkpoint">
      <p>
        <strong>Checkpoint</strong>{' '}
        <span class="muted">
          by {c.actor}, <time dateTime={c.at}>{ago(c.at)}</time>
          {c.head ? ` · HEAD ${c.head.slice(0, 10)}` : ''}
        </span>
      </p>
      <p>{c.summary}</p>
      {c.next && <p>Next: {c.next}</p>}
      {!!c.changedFiles?.length && (
        <p>
          Changed:{' '}
          {c.changedFiles.map((f) => (
            <code key={f}>{f}</code>
          ))}
        </p>
      )}
      {!!c.questions?.length && (
        <ul aria-label="Open questions">
          {c.questions.map((q) => (
            <li key={q}>{q}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * What agents leave for each other on a card: the paths it reserves while claimed, the evidence of its
 * completion, the latest checkpoint, and where its claim was made. Absent when there is none of it.
 */
export function Coordination({ task }: { task: Task }) {
  const done = task.statusCategory === 'done';
  const where = task.claim?.where;
  if (!task.touches.length && !done && !task.evidence && !task.checkpoint && !where) return null;
  return (
    <section class="section coordination" aria-labelledby="coord-h">
      <h3 id="coord-h">Coordination</h3>
      {task.touches.length > 0 && (
        <p>
          <strong>Touches</strong>{' '}
          {task.touches.map((t) => (
            <code key={t}>{t}</code>
          ))}
        </p>
      )}
      {(done || task.evidence) && <EvidenceLine evidence={task.evidence} />}
      {task.checkpoint && <CheckpointNote checkpoint={task.checkpoint} />}
      {where && (
        <p>
          <strong>Claimed from</strong> <code>{where.worktree}</code>
          {where.branch && (
            <>
              {' '}
              on <code>{where.branch}</code>
            </>
          )}
          {where.head && (
            <>
              {' '}
              at <code>{where.head.slice(0, 10)}</code>
            </>
          )}
        </p>
      )}
    </section>
  );
}

/** A checklist change, refused if the card changed since `base` (default: the version on screen). */
const checklistOp = (p: SectionProps, what: string, ops: unknown[], base = p.task.version) =>
  p.change(what, () => p.model.api.send<{ task: Task }>('POST', `/tasks/${encodeURIComponent(p.task.id)}/checklist`, { ops, expectedVersion: base }));

export function Checklist(p: SectionProps) {
  const { task } = p;
  const [editing, setEditing] = useState<number | null>(null);
  const done = task.checklist.filter((i) => i.checked).length;
  return (
    <section class="section" aria-labelledby="cl-h">
      <h3 id="cl-h">
        Checklist <span class="muted">{task.checklist.length ? `${done}/${task.checklist.length}` : ''}</span>
      </h3>
      <ul class="checklist">
        {task.checklist.map((item) => (
          <li key={`${item.index}:${item.text}`}>
            {editing === item.index ? (
              <EditText
                id={`cl-edit-${item.index}`}
                label={`Edit item ${item.index + 1}`}
                value={item.text}
                version={task.version}
                maxLength={500}
                onSave={async (v, base) => {
                  const ok = await checklistOp(p, 'checklist edit', [{ op: 'edit', index: item.index, text: v }], base);
                  setEditing(null);
                  return ok;
                }}
              />
            ) : (
              <label class="check">
                <input type="checkbox" checked={item.checked} onChange={() => void checklistOp(p, 'checklist toggle', [{ op: 'toggle', index: item.index }])} />
                <span class={item.checked ? 'done-text' : ''}>{item.text}</span>
              </label>
            )}
            <button class="icon-btn small" aria-label={`Edit “${item.text}”`} onClick={() => setEditing(editing === item.index ? null : item.index)}>
              ✎
            </button>
            <button class="icon-btn small" aria-label={`Remove “${item.text}”`} onClick={() => void checklistOp(p, 'checklist removal', [{ op: 'remove', index: item.index }])}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <Form
        class="row"
        onSubmit={async (form) => {
          const input = form.elements.namedItem('item') as HTMLInputElement;
          if (!input.value.trim()) return;
          if (await checklistOp(p, 'checklist addition', [{ op: 'add', text: input.value.trim() }])) input.value = '';
        }}
      >
        <input name="item" aria-label="New checklist item" placeholder="Add an item" maxLength={500} />
        <button class="secondary" type="submit">
          Add
        </button>
      </Form>
    </section>
  );
}

function TaskLink({ id, onOpen, tasks }: { id: string; onOpen(id: string): void; tasks: Map<string, TaskSummary> }) {
  const t = tasks.get(id);
  return (
    <button class="link-btn" onClick={() => onOpen(id)}>
      {id}
      {t ? ` ${t.title} (${t.status})` : ''}
    </button>
  );
}

/** Summaries of the tasks a panel names (blockers, blocked, parent, children), read in one list call each. */
function useSummaries(p: SectionProps, ids: string[]): Map<string, TaskSummary> {
  const [map, setMap] = useState(new Map<string, TaskSummary>());
  const key = ids.join(',');
  useEffect(() => {
    if (!ids.length) return;
    void Promise.all(
      ids.map((id) =>
        p.model.api.get<{ task: TaskSummary }>(`/tasks/${encodeURIComponent(id)}`).then(
          (r) => r.task,
          () => null,
        ),
      ),
    ).then((ts) => setMap(new Map(ts.filter((t): t is TaskSummary => !!t).map((t) => [t.id, t]))));
  }, [key, p.task.version]);
  return map;
}

export function Dependencies(p: SectionProps) {
  const { task, model } = p;
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<SearchResult[]>([]);
  const names = useSummaries(p, [...task.blockedBy, ...task.blocks]);
  useEffect(() => {
    const q = query.trim();
    if (!q) return setResults([]);
    const timer = setTimeout(() => {
      const byId = /^[A-Za-z]{2,10}-\d+$/.test(q);
      const find = byId
        ? model.api.get<{ task: TaskSummary }>(`/tasks/${encodeURIComponent(q.toUpperCase())}`).then((r) => [{ task: r.task, matchedFields: ['id'], excerpt: r.task.title }])
        : model.api.get<{ results: SearchResult[] }>('/search', { query: q, project: task.project, limit: 8 }).then((r) => r.results);
      void find.then(
        (rs) => setResults(rs.filter((r) => r.task.id !== task.id && !task.blockedBy.includes(r.task.id))),
        () => setResults([]),
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [query]);
  const enc = encodeURIComponent(task.id);
  return (
    <section class="section" aria-labelledby="dep-h">
      <h3 id="dep-h">Dependencies</h3>
      <h4>Blocked by</h4>
      {task.blockedBy.length === 0 && <p class="muted">Nothing.</p>}
      <ul class="plain-list">
        {task.blockedBy.map((b) => (
          <li key={b} class="row">
            <TaskLink id={b} onOpen={p.onOpen} tasks={names} />
            <button
              class="icon-btn small"
              aria-label={`Remove blocker ${b}`}
              onClick={() => void p.change('blocker removal', () => model.api.send('DELETE', `/tasks/${enc}/dependencies/${encodeURIComponent(b)}`))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <h4>Blocks</h4>
      {task.blocks.length === 0 && <p class="muted">Nothing.</p>}
      <ul class="plain-list">
        {task.blocks.map((b) => (
          <li key={b}>
            <TaskLink id={b} onOpen={p.onOpen} tasks={names} />
          </li>
        ))}
      </ul>
      <label for="dep-search">Add a blocker (search or type an id)</label>
      <input id="dep-search" type="search" value={query} autoComplete="off" placeholder="e.g. schema or WEB-3" onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
      {results.length > 0 && (
        <ul class="plain-list results" aria-label="Matching tasks">
          {results.map((r) => (
            <li key={r.task.id}>
              <button
                class="row-btn"
                onClick={async () => {
                  if (await p.change('dependency addition', () => model.api.send('POST', `/tasks/${enc}/dependencies`, { blockedBy: r.task.id }))) setQuery('');
                }}
              >
                <span class="card-id">{r.task.id}</span>
                <span class="row-title">{r.task.title}</span>
                <span class="sr-only">add as blocker</span>
              </button>
              {r.excerpt && r.excerpt !== r.task.title && <p class="excerpt" dangerouslySetInnerHTML={{ __html: renderExcerpt(r.excerpt) }} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Relations(p: SectionProps & { patch(what: string, body: Record<string, unknown>, base?: number): Promise<boolean> }) {
  const { task } = p;
  const names = useSummaries(p, [...(task.parentId ? [task.parentId] : []), ...task.children]);
  return (
    <section class="section" aria-labelledby="rel-h">
      <h3 id="rel-h">Parent and children</h3>
      <p>Parent: {task.parentId ? <TaskLink id={task.parentId} onOpen={p.onOpen} tasks={names} /> : <span class="muted">none</span>}</p>
      <EditText
        id="f-parent"
        label="Set parent (id, empty to detach)"
        value={task.parentId ?? ''}
        version={task.version}
        onSave={(v, base) => p.patch('parent change', { parentId: v.trim().toUpperCase() || null }, base)}
      />
      <h4>Children {task.childProgress ? <span class="muted">{`${task.childProgress.done}/${task.childProgress.total} done`}</span> : null}</h4>
      {task.children.length === 0 && <p class="muted">None.</p>}
      <ul class="plain-list">
        {task.children.map((c) => (
          <li key={c}>
            <TaskLink id={c} onOpen={p.onOpen} tasks={names} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function LinksSection({ task, patch }: { task: Task; patch(what: string, body: Record<string, unknown>, base?: number): Promise<boolean> }) {
  const l = task.links;
  const save =
    (field: string, parse: (v: string) => unknown = (v) => v.trim()): Save =>
    (v, base) =>
      patch('link change', { links: { [field]: parse(v) } }, base);
  return (
    <section class="section" aria-labelledby="links-h">
      <h3 id="links-h">Links</h3>
      {task.origin && (
        <p class="origin">
          Origin: <code>{task.origin}</code>
        </p>
      )}
      {l.prUrl && (
        <p>
          <a href={isSafeUrl(l.prUrl, { schemes: ['http:', 'https:'] }) ? l.prUrl : undefined} target="_blank" rel="noopener noreferrer">
            Pull request{l.prNumber ? ` #${l.prNumber}` : ''}
          </a>
          {l.prState ? ` (${l.prState})` : ''}
        </p>
      )}
      <div class="field-grid">
        <EditText id="f-branch" label="Branch" value={l.branch ?? ''} version={task.version} onSave={save('branch')} />
        <EditText id="f-worktree" label="Worktree" value={l.worktree ?? ''} version={task.version} onSave={save('worktree')} />
        <EditText id="f-pr" label="PR URL" value={l.prUrl ?? ''} version={task.version} onSave={save('prUrl')} />
        <EditText id="f-prnum" label="PR number" value={l.prNumber ? String(l.prNumber) : ''} version={task.version} onSave={save('prNumber', (v) => (v.trim() ? Number(v) : undefined))} />
        <EditText id="f-issue" label="Issue" value={l.issue ?? ''} version={task.version} onSave={save('issue')} />
      </div>
    </section>
  );
}

export function Comments(p: SectionProps) {
  const { task, model } = p;
  return (
    <section class="section" aria-labelledby="com-h">
      <h3 id="com-h">Comments ({task.comments.length})</h3>
      <ol class="plain-list comments">
        {task.comments.map((c) => (
          <li key={c.id} class="comment">
            <p class="muted">
              <strong>{c.author}</strong> · {c.kind} · <time dateTime={c.createdAt}>{ago(c.createdAt)}</time>
            </p>
            <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(c.body) }} />
          </li>
        ))}
      </ol>
      <Form
        onSubmit={async (form) => {
          const body = (form.elements.namedItem('body') as HTMLTextAreaElement).value.trim();
          const kind = (form.elements.namedItem('kind') as HTMLSelectElement).value;
          if (!body) return;
          if (await p.change('comment', () => model.api.send('POST', `/tasks/${encodeURIComponent(task.id)}/comments`, { body, kind }))) form.reset();
        }}
      >
        <textarea name="body" rows={3} aria-label="New comment (markdown)" placeholder="Write a comment (markdown)" />
        <div class="row">
          <label for="com-kind">Kind</label>
          <select id="com-kind" name="kind">
            <option value="comment">comment</option>
            <option value="research">research</option>
            <option value="implementation">implementation</option>
          </select>
          <button class="primary" type="submit">
            Comment
          </button>
        </div>
      </Form>
    </section>
  );
}

/** A history value in a line: a structured one (a checkpoint, a takeover, a comment) by its gist, else its JSON. */
const short = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '—';
  const o = (typeof v === 'object' ? v : {}) as Record<string, unknown>;
  const gist = [o.summary, o.holder, o.body].find((f): f is string => typeof f === 'string');
  const s = typeof v === 'string' ? v : (gist ?? JSON.stringify(v));
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
};

export function History({ events }: { events: ActivityEvent[] }) {
  return (
    <section class="section" aria-labelledby="hist-h">
      <h3 id="hist-h">History</h3>
      <ol class="timeline">
        {[...events].reverse().map((e) => (
          <li key={e.seq}>
            <p>
              <strong>{e.actor}</strong> {e.type.replace(/^task\./, '').replace(/[._]/g, ' ')} · <time dateTime={e.at}>{ago(e.at)}</time>
            </p>
            {Object.keys(e.changes).length > 0 && (
              <ul class="changes">
                {Object.entries(e.changes).map(([f, c]) => (
                  <li key={f}>
                    {f}: {short(c.before)} → {short(c.after)}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
