/** Filters over the board (assignee, label, kind, priority), applied by the server's list query. */
import { useEffect, useState } from 'preact/hooks';
import type { BoardModel } from '../lib/model.js';
import { KINDS, PRIORITIES } from '../lib/types.js';

export function FilterBar({ model }: { model: BoardModel }) {
  const [labels, setLabels] = useState<string[]>([]);
  const [assignees, setAssignees] = useState<string[]>([]);
  const key = model.project?.key;
  // The option lists wait for the lanes: the assignee list comes from board_overview, which reads
  // every task, and should not compete with the first render.
  const ready = model.lanes.length > 0;
  const refresh = Math.floor(model.liveTick / 20);
  useEffect(() => {
    if (!key || !ready) return;
    void model.api.get<{ labels: Array<{ label: string }> }>('/labels', { project: key }).then(
      (r) => setLabels(r.labels.map((l) => l.label)),
      () => undefined,
    );
    void model.api.get<{ byAssignee: Record<string, unknown> }>('/board', { project: key, cardsPerLane: 0 }).then(
      (r) => setAssignees(Object.keys(r.byAssignee).filter((a) => a && a !== 'unassigned')),
      () => undefined,
    );
  }, [key, ready, refresh]);
  const f = model.filters;
  const select = (id: string, label: string, value: string, options: readonly string[], set: (v: string) => void, any = 'Any') => (
    <label class="filter" for={id}>
      <span>{label}</span>
      <select id={id} value={value} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div class="filters" role="group" aria-label="Filters">
      {select('filter-assignee', 'Assignee', f.assignee, ['none', ...assignees], (assignee) => model.setFilters({ assignee }))}
      {select('filter-label', 'Label', f.label, labels, (label) => model.setFilters({ label }))}
      {select('filter-kind', 'Kind', f.kind, KINDS, (kind) => model.setFilters({ kind }))}
      {select('filter-priority', 'Priority', f.priority, PRIORITIES, (priority) => model.setFilters({ priority }))}
      {model.filtered && (
        <button class="link-btn" onClick={() => model.setFilters({ assignee: '', label: '', kind: '', priority: '' })}>
          Clear filters
        </button>
      )}
    </div>
  );
}
