/**
 * Principal ADE's two dependency tools (seed 003), each a reshaping of one native handoff op:
 * submit_dependency_task → submit_handoff, get_dependency_task_doc → get_task_document. Requests
 * and responses are the seed's; errors are `isError` results carrying the seed's response shape.
 */
import * as z from 'zod';
import { CairnError } from '../../core/errors.js';
import { errorText } from '../../ops/error-text.js';
import type { ProfileTool, ToolOutput } from '../profile.js';

/** ADE's four priorities on Cairn's five: normal is medium, critical is urgent. */
export const ADE_PRIORITY = { low: 'low', normal: 'medium', high: 'high', critical: 'urgent' } as const;
const AdePriority = z.enum(['low', 'normal', 'high', 'critical']);

const SubmitOut = z.object({
  success: z.boolean(),
  taskId: z.string().optional(),
  repository: z.string().optional(),
  persistedOffline: z.boolean().optional(),
  message: z.string().optional(),
});

const DocOut = z.object({
  success: z.boolean(),
  taskId: z.string(),
  repository: z.string().optional(),
  documentPath: z.string().optional(),
  status: z.enum(['active', 'pending', 'missing']),
  message: z.string().optional(),
});

const json = (v: Record<string, unknown>, isError = false): ToolOutput => ({ content: [JSON.stringify(v, null, 2)], structured: v, ...(isError ? { isError: true } : {}) });

const submitDependencyTask: ProfileTool = {
  name: 'submit_dependency_task',
  title: 'Submit a dependency task',
  description:
    "Hand a task to a dependency's repository. dependencyId (package name, repo slug or project key) finds it among the repositories this machine knows; repositoryRoot, when you know it, is that repository's folder. Recorded even when the server is offline (persistedOffline: true), delivered later.",
  input: z.object({
    dependencyId: z.string().trim().min(1).max(200).describe('Package name or repo slug'),
    repositoryRoot: z.string().trim().min(1).max(1000).optional().describe('Absolute path of the dependency repository, if already resolved'),
    taskSummary: z.string().trim().min(1).max(200).describe('Title'),
    taskDetails: z.string().max(100_000).describe('Markdown body / instructions'),
    priority: AdePriority.optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
    anchors: z.array(z.string().max(1000)).max(100).optional().describe('File paths (absolute or repo-relative) in the dependency repository'),
  }),
  output: SubmitOut,
  readOnly: false,
  async run(call, input: { dependencyId: string; repositoryRoot?: string; taskSummary: string; taskDetails: string; priority?: keyof typeof ADE_PRIORITY; tags?: string[]; anchors?: string[] }) {
    const base = {
      title: input.taskSummary,
      details: input.taskDetails,
      priority: ADE_PRIORITY[input.priority ?? 'normal'],
      ...(input.tags ? { tags: input.tags } : {}),
      ...(input.anchors ? { anchors: input.anchors } : {}),
      ...(input.repositoryRoot ? { repository: input.repositoryRoot } : {}),
    };
    // The dependency id must name the repository (a project key or alias, its package or remote slug);
    // a repository root alone never stands in for a wrong name (seed step 2: fail when none resolves).
    const out = await call.op('submit_handoff', { ...base, target: input.dependencyId });
    return json({
      success: true,
      // Queued in the outbox: the entry's id stands for the task until delivery (get_dependency_task_doc answers it pending).
      ...(out.taskId ? { taskId: out.taskId } : out.outboxId ? { taskId: out.outboxId } : {}),
      repository: out.target.repository ?? out.target.project ?? out.target.workspace,
      persistedOffline: out.persistedOffline,
      message: out.message,
    });
  },
};

const getDependencyTaskDoc: ProfileTool = {
  name: 'get_dependency_task_doc',
  title: "Get a dependency task's plan document",
  description:
    "Absolute path of a dependency task's planning document, to open or resume work. status: active (exists), pending (recorded, not written yet), missing. requireExistingDoc: false creates a shell document from the task.",
  input: z.object({
    taskId: z.string().trim().min(1).max(200),
    dependencyId: z.string().trim().min(1).max(200).optional().describe('Package name or repo slug of the repository holding the task (default: found from the task id)'),
    repositoryRoot: z.string().trim().min(1).max(1000).optional(),
    requireExistingDoc: z.boolean().optional().describe('Default true: fail if the document is missing'),
  }),
  output: DocOut,
  readOnly: false,
  idempotent: true,
  async run(call, input: { taskId: string; dependencyId?: string; repositoryRoot?: string; requireExistingDoc?: boolean }) {
    const require = input.requireExistingDoc !== false;
    // repositoryRoot overrides (the seed's "absolute path override"); else the dependency id names the repository.
    const where = input.repositoryRoot ? { repository: input.repositoryRoot } : input.dependencyId ? { target: input.dependencyId } : {};
    const out = await call.op('get_task_document', { id: input.taskId, requireExisting: require, ...where });
    const shape = { taskId: out.taskId, ...(out.repository ? { repository: out.repository } : {}), documentPath: out.documentPath, status: out.status };
    if (out.status === 'missing') {
      return json(
        { success: false, ...shape, message: `No document at ${out.documentPath}: the task has none yet. Call again with requireExistingDoc: false to create a shell document from the task.` },
        true,
      );
    }
    if (out.status === 'pending') {
      // The seed's offline record: a handoff waiting in the outbox (its record is the path), or a document the task names but nobody wrote yet.
      return json({
        success: true,
        ...shape,
        message: `Pending: ${out.documentPath} is the offline record or a document not written yet; the task's document follows once it is delivered and written.`,
      });
    }
    return json({ success: true, ...shape, message: out.created ? `Created a shell document from ${out.taskId}.` : `Document of ${out.taskId}.` });
  },
};

export const adeTools: readonly ProfileTool[] = [submitDependencyTask, getDependencyTaskDoc];

/** A refusal in the seed's response shape: success false, the code and message (and suggestions) as text. */
export function adeError(err: CairnError): ToolOutput {
  // Suggestions name submit_handoff's fields; say them in the seed's words.
  const words = (s: string) =>
    s
      .replace(/\brepository: /g, 'repositoryRoot: ')
      .replace(/\btarget: /g, 'dependencyId: ')
      .replace(/\bwithout repository\b/g, 'without repositoryRoot');
  const restated = new CairnError(err.code, err.message, { suggestions: err.suggestions.map(words), ...(err.details ? { details: err.details } : {}) });
  return { content: [JSON.stringify({ success: false, error: err.code, message: errorText(restated) }, null, 2)], isError: true };
}
