/**
 * A write against a source that changed since the caller last read it: the sync that runs before
 * the write brings the owner's change in first, and if the write then changes one of the same
 * fields of the same task, it was made without seeing that change. It is refused with
 * VERSION_CONFLICT and the fresh record, and nothing is lost on either side. (A caller that passes
 * expectedVersion gets the same answer from the version check; this covers writes that do not.)
 */
import { CairnError } from '../core/errors.js';
import type { Tx } from '../core/ports.js';
import { displayIdOf } from '../core/services/hydrate.js';

export async function refuseOverlap(tx: Tx, since: number, pulled: ReadonlyMap<string, ReadonlySet<string>>, label: (taskUid: string) => string): Promise<void> {
  if (!pulled.size) return;
  const events = await tx.links.eventsSince(since);
  for (const e of events) {
    const theirs = e.taskUid ? pulled.get(e.taskUid) : undefined;
    if (!theirs) continue;
    const both = Object.keys(e.changes).filter((f) => theirs.has(f));
    if (!both.length) continue;
    const row = (await tx.getTask(e.taskUid!))!;
    const id = displayIdOf(row);
    // The record as the source left it: this write's own changes undone (each field's first "before").
    const fresh: Record<string, unknown> = {
      id,
      version: row.version - events.filter((x) => x.taskUid === row.uid && x.type.startsWith('task.')).length,
      title: row.title,
      status: row.status,
      priority: row.priority,
      assignee: row.assignee,
      labels: row.labels,
      description: row.description,
    };
    for (const x of [...events].reverse()) if (x.taskUid === row.uid) for (const [f, c] of Object.entries(x.changes)) if (f in fresh) fresh[f] = c.before;
    throw new CairnError(
      'VERSION_CONFLICT',
      `Task ${id} was just changed in ${label(row.uid)} (${both.join(', ')}), which this write changes too without having seen it. Nothing was changed; the task is now at version ${String(fresh.version)}.`,
      {
        suggestions: [`get_task {id: "${id}"} to read the fresh record, then write again with expectedVersion: ${String(fresh.version)}`],
        details: { current: fresh.version, fields: both, task: fresh },
      },
    );
  }
}
