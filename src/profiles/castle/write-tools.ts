/** Castle's later write tools (seeds 000/001, phase 4), served with `--toolsets write`. */
import * as z from 'zod';
import { PrState } from '../../core/model/task.js';
import { CASTLE_STATES } from './template.js';
import type { ProfileCall, ProfileTool } from '../profile.js';
import { formatTaskDetail } from './format.js';

const fields = {
  description: z.string().max(100_000).optional(),
  state: z.enum(CASTLE_STATES).optional(),
  kind: z.enum(['feature', 'bug', 'chore', 'spike']).optional(),
  labels: z.array(z.string().min(1).max(50)).max(50).optional().describe('Replaces the labels'),
  branchName: z.string().max(300).optional(),
  worktreePath: z.string().max(1000).optional(),
  prUrl: z.string().max(1000).optional(),
  prNumber: z.number().int().positive().optional(),
  prState: PrState.optional(),
  githubRepo: z.string().max(300).optional().describe('owner/repo'),
  githubIssueNumber: z.number().int().positive().optional(),
  researchContent: z.string().min(1).max(100_000).optional().describe('Research notes, added to the task'),
};
type Fields = { [K in keyof typeof fields]?: z.output<(typeof fields)[K]> };

/** Castle's flat fields as Cairn's links (only those given). */
function linksOf(f: Fields): Record<string, unknown> | undefined {
  const issue = f.githubIssueNumber ? `${f.githubRepo ? f.githubRepo : ''}#${f.githubIssueNumber}` : f.githubRepo;
  const links = {
    ...(f.branchName !== undefined ? { branch: f.branchName } : {}),
    ...(f.worktreePath !== undefined ? { worktree: f.worktreePath } : {}),
    ...(f.prUrl !== undefined ? { prUrl: f.prUrl } : {}),
    ...(f.prNumber !== undefined ? { prNumber: f.prNumber } : {}),
    ...(f.prState !== undefined ? { prState: f.prState } : {}),
    ...(issue !== undefined ? { issue } : {}),
  };
  return Object.keys(links).length ? links : undefined;
}

async function withResearch(call: ProfileCall, id: string, research: string | undefined) {
  if (research) await call.op('add_comment', { id, body: research, kind: 'research' });
  return (await call.op('get_task', { id })).task;
}

const createTask: ProfileTool = {
  name: 'castle_create_task',
  title: 'Create a Castle task',
  description: 'Create a Castle task in the current project (state new unless given). Returns the task with its ID.',
  input: z.object({ title: z.string().trim().min(1).max(200), ...fields }),
  readOnly: false,
  toolset: 'write',
  async run(call, input: Fields & { title: string }) {
    const project = await call.project({ create: true });
    const links = linksOf(input);
    const { task } = await call.op('create_task', {
      project,
      title: input.title,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.state ? { status: input.state } : {}),
      ...(input.kind ? { kind: input.kind } : {}),
      ...(input.labels ? { labels: input.labels } : {}),
      ...(links ? { links } : {}),
    });
    const full = await withResearch(call, task.id, input.researchContent);
    return { content: [`Created ${full.id}.\n\n${formatTaskDetail(full)}`], structured: { id: full.id, version: full.version } };
  },
};

const updateTask: ProfileTool = {
  name: 'castle_update_task',
  title: 'Update a Castle task',
  description: 'Update a Castle task: only the fields given change (state, kind, labels, branch, worktree, PR, GitHub issue, close reason); researchContent adds research notes.',
  input: z.object({
    taskId: z.string().min(1).max(200),
    title: z.string().trim().min(1).max(200).optional(),
    closeReason: z.enum(['fixed', 'no_repro', 'wont_fix', 'duplicate']).optional().describe('For bugs'),
    ...fields,
  }),
  readOnly: false,
  idempotent: true,
  toolset: 'write',
  async run(call, input: Fields & { taskId: string; title?: string; closeReason?: string }) {
    const links = linksOf(input);
    const patch = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.state ? { status: input.state } : {}),
      ...(input.kind ? { kind: input.kind } : {}),
      ...(input.labels ? { labels: input.labels } : {}),
      ...(input.closeReason ? { closeReason: input.closeReason } : {}),
      ...(links ? { links } : {}),
    };
    const id = Object.keys(patch).length ? (await call.op('update_task', { id: input.taskId, ...patch })).task.id : input.taskId;
    const full = await withResearch(call, id, input.researchContent);
    return { content: [`Updated ${full.id}.\n\n${formatTaskDetail(full)}`], structured: { id: full.id, version: full.version } };
  },
};

export const castleWriteTools: readonly ProfileTool[] = [createTask, updateTask];
