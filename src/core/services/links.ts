/**
 * Linking a workspace to a store another program owns (docs/links.md): `link_source` records the
 * link and reads the source in, `unlink_source` forgets it (its projects and tasks stay as they
 * are), `list_links` says how each stands. The sync itself is the store's (links/linked-store.ts):
 * every call through a workspace with links reads what changed first.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import type { Context } from '../context.js';
import { nowIso } from '../context.js';
import { CairnError } from '../errors.js';
import { LINK_KINDS, type LinkKind, type LinkRow } from '../link-port.js';
import { newUlid, ProjectKey } from '../model/ids.js';
import { lazy } from '../model/lazy.js';
import type { Tx } from '../ports.js';
import { record } from './activity.js';
import { detectSource } from './import/index.js';

export const LinkView = lazy(() =>
  z.object({
    path: z.string().describe('The source: a file or folder another program owns'),
    kind: z.enum(LINK_KINDS),
    writable: z.boolean().describe('Whether Cairn writes changes back to it'),
    state: z
      .enum(['in sync', 'behind', 'conflict'])
      .describe('in sync: every record read; behind: some could not be read (see warnings) or the source is missing; conflict: a write Cairn made was lost (see lost)'),
    projects: z.array(z.string()).describe('Keys of the projects it feeds'),
    records: z.number().int(),
    warnings: z.array(z.string()),
    lost: z.array(z.object({ task: z.string(), at: z.string(), fields: z.array(z.string()) })),
    syncedAt: z.string().nullable(),
  }),
);
export type LinkView = z.infer<ReturnType<typeof LinkView>>;

export const LinkSourceInput = lazy(() =>
  z.object({
    path: z
      .string()
      .trim()
      .min(1)
      .max(4096)
      .describe('castle.db, a DevPlanner workspace or project folder, a Backlog.md folder, a Task Master tasks.json or a Beads issues.jsonl (or the repository holding one)'),
    from: z.enum(LINK_KINDS).optional().describe('The kind of source, when Cairn cannot tell from the path'),
    project: ProjectKey.optional().describe('Put every record in this project (made when missing)'),
    writable: z.boolean().optional().describe('Write changes back to the source (default true; false for Castle, whose app overwrites its file while it runs)'),
  }),
);

export const UnlinkSourceInput = lazy(() =>
  z.object({
    path: z.string().trim().min(1).max(4096).describe('The linked path, or the key of a project it feeds'),
  }),
);

/** The file or folder a link keeps for a path the user gave (a repository holding the source is accepted). */
function sourcePath(kind: LinkKind, abs: string): string {
  const dir = statSync(abs).isDirectory();
  const inside = (...parts: string[]) => (dir && existsSync(join(abs, ...parts)) ? join(abs, ...parts) : abs);
  switch (kind) {
    case 'castle':
      return inside('castle.db');
    case 'taskmaster':
      return inside('.taskmaster', 'tasks', 'tasks.json');
    case 'beads':
      return existsSync(join(abs, '.beads', 'issues.jsonl')) ? join(abs, '.beads', 'issues.jsonl') : inside('issues.jsonl');
    case 'backlog':
      return inside('backlog');
    case 'devplanner':
      return abs;
  }
}

/** How to tell the store its links changed; refused for a store that keeps none (PostgreSQL, a remote server). */
async function linksOf(ctx: Context): Promise<() => void> {
  // A read first: a store still being opened (an MCP server's) is decided by then.
  await ctx.store.read(async () => undefined);
  if (!ctx.store.forgetLinks?.()) {
    throw new CairnError('VALIDATION_ERROR', `Links are kept by a SQLite workspace on the machine that holds the linked files; ${ctx.store.location} cannot hold one. Nothing was changed.`, {
      suggestions: ['Link from a local workspace (cairn init, then cairn link PATH)', 'Or import the source once: cairn import PATH'],
    });
  }
  return () => void ctx.store.forgetLinks?.();
}

export async function linkSource(ctx: Context, input: z.infer<ReturnType<typeof LinkSourceInput>>): Promise<LinkView> {
  const forget = await linksOf(ctx);
  const abs = resolve(ctx.cwd ?? process.cwd(), input.path);
  if (!existsSync(abs)) {
    throw new CairnError('VALIDATION_ERROR', `${abs}: no such file or folder. Nothing was linked.`, {
      suggestions: ['Check the path: a castle.db, a DevPlanner workspace, or a repository holding backlog/, .taskmaster/ or .beads/'],
    });
  }
  const detected = detectSource(abs);
  const kind = input.from ?? (detected === 'cairn' ? undefined : detected);
  if (!kind) {
    throw new CairnError('VALIDATION_ERROR', `Cannot tell what ${abs} holds. Nothing was linked.`, { suggestions: [`Name its kind: --from ${LINK_KINDS.join('|')}`] });
  }
  const path = realpathSync(sourcePath(kind, abs));
  if (input.project && (kind === 'castle' || (kind === 'devplanner' && !existsSync(join(path, '_project.json'))))) {
    throw new CairnError(
      'VALIDATION_ERROR',
      `--project puts a source of one project into a project of yours; ${path} can hold several (${kind === 'castle' ? "Castle's projects are its project paths" : 'a DevPlanner workspace holds a folder per project'}). Nothing was linked.`,
      {
        suggestions: [
          kind === 'castle'
            ? 'Link it without --project: each Castle project path becomes a project'
            : 'Link one project folder (the one holding _project.json) with --project, or the workspace without it',
        ],
      },
    );
  }
  const writable = input.writable ?? kind !== 'castle';
  await ctx.store.write(async (tx) => {
    const existing = (await tx.links.list()).find((l) => l.path === path);
    if (existing) {
      if (existing.kind !== kind)
        throw new CairnError('VALIDATION_ERROR', `${path} is linked already as a ${existing.kind} source. Nothing was changed.`, { suggestions: [`cairn unlink ${JSON.stringify(path)} first`] });
      // Linking again changes whether Cairn writes, and acknowledges the writes reported lost.
      await tx.links.update(existing.id, { writable, state: { ...existing.state, lost: [] } });
      return;
    }
    const state = { warnings: [], lost: [], ...(input.project ? { project: input.project } : {}) };
    const row: LinkRow = { id: newUlid(), kind, path, writable, state, createdAt: nowIso(ctx) };
    await tx.links.insert(row);
  });
  forget();
  // Reading through the store brings the source in: this is the first sync.
  return ctx.store.read(async (tx) => viewOf(tx, (await tx.links.list()).find((l) => l.path === path)!));
}

export async function unlinkSource(ctx: Context, input: z.infer<ReturnType<typeof UnlinkSourceInput>>): Promise<{ unlinked: LinkView }> {
  const forget = await linksOf(ctx);
  const view = await ctx.store.write(async (tx) => {
    const link = await findLink(tx, ctx, input.path);
    const out = await viewOf(tx, link);
    for (const p of await tx.links.projects(link.id)) {
      await tx.updateProject(p.projectUid, { updatedAt: nowIso(ctx) });
      await record(tx, ctx, { projectUid: p.projectUid, taskUid: null, type: 'project.updated', changes: { link: { before: link.path, after: null } } });
    }
    await tx.links.remove(link.id);
    return out;
  });
  forget();
  return { unlinked: view };
}

export async function listLinks(ctx: Context): Promise<{ links: LinkView[] }> {
  return ctx.store.read(async (tx) => ({ links: await Promise.all((await tx.links.list()).map((l) => viewOf(tx, l))) }));
}

async function findLink(tx: Tx, ctx: Context, ref: string): Promise<LinkRow> {
  const links = await tx.links.list();
  const abs = resolve(ctx.cwd ?? process.cwd(), ref);
  const real = existsSync(abs) ? realpathSync(abs) : abs;
  const byPath = links.find((l) => l.path === real || l.path === abs);
  if (byPath) return byPath;
  const project = await tx.getProjectByKey(ref.toUpperCase());
  if (project) {
    for (const l of links) if ((await tx.links.projects(l.id)).some((p) => p.projectUid === project.uid)) return l;
  }
  throw new CairnError('VALIDATION_ERROR', `No link has the path or project "${ref}". Nothing was changed.`, {
    suggestions: [links.length ? `Linked: ${links.map((l) => l.path).join(', ')}` : 'This workspace has no links', 'cairn links lists them'],
  });
}

async function viewOf(tx: Tx, link: LinkRow): Promise<LinkView> {
  const projects: string[] = [];
  for (const p of await tx.links.projects(link.id)) {
    const row = await tx.getProjectByUid(p.projectUid);
    if (row) projects.push(row.key);
  }
  const { warnings, lost } = link.state;
  const state = lost.length ? 'conflict' : warnings.length || !existsSync(link.path) ? 'behind' : 'in sync';
  return {
    path: link.path,
    kind: link.kind,
    writable: link.writable,
    state,
    projects: projects.sort(),
    records: (await tx.links.items(link.id)).length,
    warnings: existsSync(link.path) ? warnings : [`${link.path} is missing`, ...warnings],
    lost,
    syncedAt: link.state.syncedAt ?? null,
  };
}
