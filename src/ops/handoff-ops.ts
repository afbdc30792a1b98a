/** The handoff toolset: hand a task to another project or repository (never lost), and find a task's plan document. */
import { SubmitHandoffInput, SubmitHandoffOutput, submitHandoff } from '../core/services/handoffs.js';
import { GetTaskDocumentInput, TaskDocumentOutput, getTaskDocument } from '../core/services/task-document.js';
import { defineOp } from './op.js';

export const submitHandoffOp = defineOp({
  name: 'submit_handoff',
  toolset: 'handoff',
  title: 'Hand a task to another project',
  description:
    'Create a task in another project: target is a key, an alias (package name, repo slug) or a repository path with a .cairn/ workspace. Records origin; anchors are stored repo-relative (paths outside the target are refused). Pass idempotencyKey so a retry cannot make two. persistedOffline: true means queued in the outbox.',
  input: SubmitHandoffInput,
  output: SubmitHandoffOutput,
  readOnly: false,
  idempotent: true,
  rest: { method: 'POST', path: '/handoffs' },
  run: (ctx, input) => submitHandoff(ctx, input),
});

export const getTaskDocumentOp = defineOp({
  name: 'get_task_document',
  toolset: 'handoff',
  title: "Find a task's plan document",
  description:
    "Absolute path of the task's markdown plan document (<project root>/.cairn/docs/KEY-N.md) and its status: active (exists), pending (recorded, not written), missing. requireExisting: false writes a shell document from the task.",
  input: GetTaskDocumentInput,
  output: TaskDocumentOutput,
  readOnly: false,
  idempotent: true,
  rest: { method: 'POST', path: '/tasks/:id/document' },
  run: (ctx, input) => getTaskDocument(ctx, input),
});
