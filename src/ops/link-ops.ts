/** Linked sources: link a store another program owns, unlink it, list how each stands (docs/links.md). */
import * as z from 'zod';
import { LinkSourceInput, LinkView, linkSource, listLinks, UnlinkSourceInput, unlinkSource } from '../core/services/links.js';
import { defineOp } from './op.js';

export const linkSourceOp = defineOp({
  name: 'link_source',
  toolset: 'admin',
  title: 'Link a source',
  description:
    "Serve another program's tasks in place: Castle's castle.db, a DevPlanner workspace, a Backlog.md folder, a Task Master tasks.json or a Beads issues.jsonl. The source stays the source of truth: every call reads what changed first, and writes go back in its own format (Castle only with writable: true, when its app is closed).",
  input: LinkSourceInput,
  output: () => z.object({ link: LinkView() }),
  readOnly: false,
  idempotent: true,
  rest: { method: 'POST', path: '/links' },
  // It reads, and with writable: true writes, any path on the server's machine, as import and export do.
  admin: true,
  run: async (ctx, input) => ({ link: await linkSource(ctx, input) }),
});

export const unlinkSourceOp = defineOp({
  name: 'unlink_source',
  toolset: 'admin',
  title: 'Unlink a source',
  description: 'Stop syncing a linked source (by path or by the key of a project it feeds). Its projects and tasks stay in the workspace as they are; the source is not touched.',
  input: UnlinkSourceInput,
  output: () => z.object({ unlinked: LinkView() }),
  readOnly: false,
  destructive: true,
  rest: { method: 'POST', path: '/links/unlink' },
  admin: true,
  run: (ctx, input) => unlinkSource(ctx, input),
});

export const listLinksOp = defineOp({
  name: 'list_links',
  toolset: 'admin',
  title: 'List linked sources',
  description: 'Each linked source with its kind, projects, record count and state: in sync, behind (records it could not read, with warnings) or conflict (writes its owner erased).',
  input: () => z.object({}),
  output: () => z.object({ links: z.array(LinkView()) }),
  readOnly: true,
  idempotent: true,
  rest: { method: 'GET', path: '/links' },
  // It names paths on the server's machine, as list_tokens names its tokens.
  admin: true,
  run: (ctx) => listLinks(ctx),
});
