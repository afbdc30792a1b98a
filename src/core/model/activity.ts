/** Activity events: the append-only log that is task history, audit trail and change feed at once. */
import * as z from 'zod';
import { lazy } from './lazy.js';

export const FieldChange = lazy(() => z.object({ before: z.unknown(), after: z.unknown() }));

export const ActivityEvent = lazy(() =>
  z.object({
    seq: z.number().int().describe('Monotonic sequence; pass to changesSince to resume'),
    at: z.string(),
    actor: z.string(),
    project: z.string().nullable(),
    taskId: z.string().nullable().describe('Display id of the task, when the event is about one'),
    type: z.string().describe('e.g. task.created, task.updated, task.moved, task.completed, dependency.added'),
    changes: z.record(z.string(), FieldChange()),
    via: z.string().optional().describe('Who acted on the actor\'s behalf, e.g. "token:ci"'),
  }),
);
export type ActivityEvent = z.infer<ReturnType<typeof ActivityEvent>>;
