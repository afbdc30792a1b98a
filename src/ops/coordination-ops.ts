/** The coordination toolset: who holds which files, and a checkpoint for the agent that goes on. */
import { CheckpointTaskInput, checkpointTask } from '../core/services/checkpoints.js';
import { CheckPathsInput, CheckPathsOutput, checkPaths } from '../core/services/reservations.js';
import { defineOp } from './op.js';
import { TaskOut } from './schemas.js';

export const checkPathsOp = defineOp({
  name: 'check_paths',
  toolset: 'coordination',
  title: 'Who holds these files',
  description: "Before editing files: which of these paths another agent's live claim reserves (its task's touches), and which are free.",
  input: CheckPathsInput,
  output: CheckPathsOutput,
  readOnly: true,
  rest: { method: 'POST', path: '/paths/check' },
  run: (ctx, input) => checkPaths(ctx, input),
});

export const checkpointTaskOp = defineOp({
  name: 'checkpoint_task',
  toolset: 'coordination',
  title: 'Checkpoint a task',
  description:
    'Leave a hand-on for whoever works this task next (you after a compaction, or another agent): summary, next step, HEAD (read from your checkout if omitted), changed files, open questions. The next claim of the task returns the latest.',
  input: CheckpointTaskInput,
  output: TaskOut,
  readOnly: false,
  rest: { method: 'POST', path: '/tasks/:id/checkpoints' },
  run: (ctx, input) => checkpointTask(ctx, input),
});
