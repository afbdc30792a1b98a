/** Finds projects and tasks from what callers type, with "did you mean" suggestions when nothing matches. */
import { CairnError } from '../errors.js';
import { parseTaskRef, PROJECT_KEY_RE } from '../model/ids.js';
import type { ProjectRow, TaskRow, Tx } from '../ports.js';
import { closest } from '../rules/suggest.js';

/** A project by key (any case) or alias; archived projects resolve too. */
export async function resolveProject(tx: Tx, ref: string): Promise<ProjectRow> {
  const wanted = ref.trim();
  const byKey = PROJECT_KEY_RE.test(wanted.toUpperCase()) ? await tx.getProjectByKey(wanted.toUpperCase()) : undefined;
  if (byKey) return byKey;
  const all = await tx.listProjects(true);
  const byAlias = all.filter((p) => p.aliases.some((a) => a.toLowerCase() === wanted.toLowerCase()));
  if (byAlias.length > 1) {
    // Only a workspace from before aliases were unique can hold this; picking one would be a guess.
    const keys = byAlias.map((p) => p.key);
    throw new CairnError('PROJECT_EXISTS', `The alias "${wanted}" names several projects (${keys.join(', ')}), so it cannot say which one is meant.`, {
      suggestions: [...keys.map((k) => `Use project "${k}"`), `Keep the alias on one project: update_project {key: "${keys[1]}", aliases: [...]}`],
      details: { alias: wanted, projects: keys },
    });
  }
  if (byAlias[0]) return byAlias[0];
  const near = closest(
    wanted,
    all.flatMap((p) => [p.key, ...p.aliases]),
  );
  throw new CairnError('PROJECT_NOT_FOUND', `No project has the key or alias "${wanted}".${near.length ? ` Did you mean ${near.join(', ')}?` : ''}`, {
    suggestions: [...near.map((k) => `Use project "${k}"`), all.length ? 'list_projects to see every project key' : 'create_project {key, name} to create the first project'],
    details: { wanted, candidates: near },
  });
}

async function notFound(tx: Tx, ref: string, projectUid: string | null): Promise<never> {
  const recent = await tx.recentTaskTitles(projectUid, 500);
  const byId = closest(
    ref.toUpperCase(),
    recent.map((r) => r.id),
  );
  const lower = ref.toLowerCase();
  const byTitle = recent
    .filter((r) => r.title.toLowerCase().includes(lower))
    .slice(0, 3)
    .map((r) => r.id);
  const near = [...new Set([...byId, ...byTitle])].slice(0, 3);
  const titled = near.map((id) => `${id} "${recent.find((r) => r.id === id)?.title ?? ''}"`);
  throw new CairnError('TASK_NOT_FOUND', `Task ${ref} does not exist.${titled.length ? ` Closest: ${titled.join(', ')}.` : ''}`, {
    suggestions: [...near.map((id) => `get_task {id: "${id}"}`), 'search_tasks {query: "<words from the title>"} to find it by text'],
    details: { wanted: ref, candidates: near },
  });
}

/** The task a linked source's record with this id is, when exactly one is. */
async function bySourceId(tx: Tx, ref: string): Promise<TaskRow | undefined> {
  const id = ref.trim();
  let uids = await tx.links.tasksBySourceId(id);
  if (!uids.length && id !== id.toLowerCase()) uids = await tx.links.tasksBySourceId(id.toLowerCase());
  return uids.length === 1 ? tx.getTask(uids[0]!) : undefined;
}

/**
 * A task by display id (`API-12`, any case) or internal ULID. Deleted tasks resolve; callers decide what to allow.
 * `field` names the argument the id came from (blockedBy, parentId…) in an INVALID_ID error.
 */
export async function resolveTask(tx: Tx, ref: string, field = 'id'): Promise<TaskRow> {
  const parsed = parseTaskRef(ref);
  if (parsed.type === 'malformed') {
    // Not a Cairn id: a linked source's own id (a Castle UUID, Task Master's 3.1) may name the task.
    const linked = await bySourceId(tx, ref);
    if (linked) return linked;
    throw new CairnError('INVALID_ID', `${field}: "${parsed.text}" is not a task id. Use a display id like API-12 (project key, dash, number) or a 26-character internal id.`, {
      suggestions: ['list_tasks to see task ids', 'search_tasks {query} to find a task by its title'],
      details: { field, wanted: parsed.text },
    });
  }
  if (parsed.type === 'ulid') {
    return (await tx.getTask(parsed.id)) ?? notFound(tx, parsed.text, null);
  }
  // The usual case in one read: the project's own key. An alias, or a task that is not there, takes the longer way.
  const direct = await tx.getTaskByKey(parsed.projectKey, parsed.seq);
  if (direct) return direct;
  // Shaped like a display id but not one here: a linked source's id of that shape (Backlog's task-12).
  const linked = await bySourceId(tx, ref);
  if (linked) return linked;
  const project = await tx.getProjectByKey(parsed.projectKey);
  if (!project) {
    const keys = (await tx.listProjects(true)).map((p) => p.key);
    const near = closest(parsed.projectKey, keys);
    throw new CairnError(
      'TASK_NOT_FOUND',
      `Task ${parsed.text} does not exist: there is no project "${parsed.projectKey}".${near.length ? ` Did you mean ${near.map((k) => `${k}-${parsed.seq}`).join(', ')}?` : ''}`,
      {
        suggestions: [...near.map((k) => `get_task {id: "${k}-${parsed.seq}"}`), 'list_projects to see project keys'],
        details: { wanted: parsed.text, candidates: near.map((k) => `${k}-${parsed.seq}`) },
      },
    );
  }
  return (await tx.getTaskBySeq(project.uid, parsed.seq)) ?? notFound(tx, parsed.text, project.uid);
}

/**
 * The projects an unscoped read covers: undefined (all) unless some project is archived, in which
 * case its tasks are left out like archived tasks are.
 */
export async function activeProjectUids(tx: Tx): Promise<string[] | undefined> {
  const all = await tx.listProjects(true);
  return all.some((p) => p.archivedAt) ? all.filter((p) => !p.archivedAt).map((p) => p.uid) : undefined;
}

/** Like resolveTask but refuses soft-deleted tasks, naming how to restore them. */
export async function resolveLiveTask(tx: Tx, ref: string, field = 'id'): Promise<TaskRow> {
  const t = await resolveTask(tx, ref, field);
  if (t.deletedAt) {
    const id = `${t.projectKey}-${t.seq}`;
    throw new CairnError('TASK_DELETED', `Task ${id} is deleted (since ${t.deletedAt}); it cannot be changed until restored.`, {
      suggestions: [`restore_task {id: "${id}"}`],
    });
  }
  return t;
}
