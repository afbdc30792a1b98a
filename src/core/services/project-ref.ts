/** A project named by key or alias, with its workflow but without counting its tasks: for surfaces that only need to name it. */
import type { Context } from '../context.js';
import type { Project } from '../model/project.js';
import { resolveProject } from './resolve.js';

export type ProjectRef = Omit<Project, 'taskCount'>;

/** PROJECT_NOT_FOUND (with the closest keys) when the key or alias names no project. */
export async function projectByRef(ctx: Context, ref: string): Promise<ProjectRef> {
  return ctx.store.read(async (tx) => {
    const p = await resolveProject(tx, ref);
    return {
      key: p.key, uid: p.uid, name: p.name, description: p.description, root: p.root, aliases: p.aliases,
      statuses: await tx.getStatuses(p.uid), archived: p.archivedAt !== null, createdAt: p.createdAt, updatedAt: p.updatedAt,
    };
  });
}
