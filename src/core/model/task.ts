/** The task: its field schemas, the full shape `get` returns and the compact summary lists return. */
import * as z from 'zod';
import { isSafeUrl } from '../rules/safe-url.js';
import { lazy } from './lazy.js';
import { Checkpoint, ClaimWhere, Evidence } from './coordination.js';
import { Category } from './workflow.js';

export const KINDS = ['task', 'feature', 'bug', 'chore', 'spike', 'epic'] as const;
export const Kind = z.enum(KINDS).describe('task|feature|bug|chore|spike|epic');
export type Kind = z.infer<typeof Kind>;

/** Ordered from least to most urgent; the index is the stored rank used for sorting. */
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export const Priority = z.enum(PRIORITIES).describe('none|low|medium|high|urgent');
export type Priority = z.infer<typeof Priority>;
export const priorityRank = (p: Priority): number => PRIORITIES.indexOf(p);
export const priorityFromRank = (r: number): Priority => PRIORITIES[r] ?? 'none';

export const COMMENT_KINDS = ['comment', 'research', 'implementation'] as const;
export const CommentKind = z.enum(COMMENT_KINDS).describe('comment|research|implementation');
export type CommentKind = z.infer<typeof CommentKind>;

export const Title = z.string({ error: 'title must be a string' }).trim().min(1, 'title must not be empty').max(200, 'title must be at most 200 characters');

export const Description = z.string().max(100_000, 'description must be at most 100,000 characters');

// Checked by refinements, not a pattern and lengths: a label schema appears in six default tools (see `ruled`).
export const Label = z
  .string({ error: 'each label must be a string' })
  .trim()
  .check(
    z.refine((s) => s.length > 0, 'labels must not be empty'),
    z.refine((s) => s.length <= 50, 'labels must be at most 50 characters'),
    z.refine((s) => !s.includes(','), 'labels must not contain commas'),
  );
export const Labels = z.array(Label).max(50, 'at most 50 labels per task');

/**
 * A string checked by rules the advertised JSON Schema does not spell out (no pattern or lengths):
 * every tool list pays for its schema in each prompt, and the error message says the rule anyway.
 */
const ruled = (name: string, max: number, re: RegExp, rule: string) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .check(
      z.refine((s) => s.length > 0, `${name} must not be empty`),
      z.refine((s) => s.length <= max, `${name} must be at most ${max} characters`),
      z.refine((s) => s.length === 0 || s.length > max || re.test(s), `${name} must be ${rule}`),
    );

/** A sub-state within the lane (DevPlanner's card status), e.g. "in-progress", "blocked", "review", "testing". */
export const Substatus = ruled('substatus', 40, /^[a-z0-9_-]+$/, 'lower-case letters, digits, "-" or "_" (e.g. "in-progress")');

/** A name for the task unique within its project (DevPlanner's card slug), e.g. "user-authentication". */
export const Slug = ruled('slug', 100, /^[a-z0-9-]+$/, 'lower-case letters, digits or "-" (e.g. "user-authentication")');

export const Assignee = z.string().trim().min(1).max(100).describe('e.g. agent:claude-1');
export const Score = z.number().finite().min(-1e9).max(1e9).describe('Rank within a priority; higher first');

const WEB = ['http:', 'https:'];

/**
 * An issue is a reference ("acme/api#42", "JIRA:ABC-1") or a URL: what reads as a URL (`scheme://`,
 * or a scheme a browser runs, as the URL parser reads it) must be http, https or mailto.
 */
function isSafeIssue(s: string): boolean {
  if (/[\u0000-\u001f\u007f]/.test(s)) return false;
  let scheme: string;
  try {
    scheme = new URL(s).protocol;
  } catch {
    return true;
  }
  return !s.includes('://') && !['javascript:', 'vbscript:', 'data:', 'file:', 'blob:'].includes(scheme) ? true : isSafeUrl(s);
}

export const PrState = z.enum(['open', 'draft', 'merged', 'closed']);
export const Links = lazy(() =>
  z
    .object({
      branch: z.string().max(300).optional(),
      worktree: z.string().max(1000).optional(),
      prUrl: z
        .string()
        .max(1000)
        .refine((s) => isSafeUrl(s, { schemes: WEB }), 'prUrl must be an http or https URL, e.g. "https://github.com/acme/api/pull/12"')
        .optional(),
      prNumber: z.number().int().positive().optional(),
      prState: PrState.optional(),
      issue: z.string().max(1000).refine(isSafeIssue, 'issue must be a reference such as "acme/api#42" or an http, https or mailto URL').optional().describe('External issue reference or URL'),
    })
    .strict(),
);
export type Links = z.infer<ReturnType<typeof Links>>;

export const Anchor = z
  .string()
  .trim()
  .min(1, 'anchors must not be empty')
  .max(1000, 'anchors must be at most 1,000 characters')
  // A NUL or line break cannot be in a path a person means, and path handling silently cuts a path at a NUL.
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'anchors must not contain control characters (NUL, line breaks)')
  .describe('Repository-relative file path');
export const Anchors = z.array(Anchor).max(100);

export const ChecklistItem = lazy(() => z.object({ index: z.number().int(), text: z.string(), checked: z.boolean() }));
export type ChecklistItem = z.infer<ReturnType<typeof ChecklistItem>>;
export const CommentBody = z.string().trim().min(1, 'comment body must not be empty').max(100_000, 'comment body must be at most 100,000 characters');
export const CloseReason = z.string().max(500, 'close reason must be at most 500 characters');
export const Origin = z.string().max(500, 'origin must be at most 500 characters');
export const DocumentPath = z.string().max(2000, 'document path must be at most 2,000 characters');

export const ChecklistText = z.string().trim().min(1, 'checklist text must not be empty').max(500, 'checklist text must be at most 500 characters');

export const Progress = lazy(() => z.object({ done: z.number().int(), total: z.number().int() }));
export type Progress = z.infer<ReturnType<typeof Progress>>;

export const Comment = lazy(() =>
  z.object({
    id: z.string(),
    author: z.string(),
    kind: CommentKind,
    body: z.string(),
    createdAt: z.string(),
  }),
);
export type Comment = z.infer<ReturnType<typeof Comment>>;

export const Claim = lazy(() =>
  z.object({
    actor: z.string(),
    expiresAt: z.string(),
    generation: z.number().int().optional().describe('Rises with every new claim of the task (full views)'),
    where: ClaimWhere().optional().describe('Worktree, branch and HEAD it was claimed from (full views)'),
  }),
);
export type Claim = z.infer<ReturnType<typeof Claim>>;

/** Fields every task carries, in lists and in full. Ids are display ids (`API-12`). */
export const TaskSummary = lazy(() =>
  z.object({
    id: z.string().describe('Display id, e.g. API-12'),
    uid: z.string().describe('Stable internal id (ULID)'),
    project: z.string(),
    title: z.string(),
    status: z.string(),
    statusCategory: Category,
    kind: Kind,
    priority: Priority,
    score: z.number(),
    labels: z.array(z.string()),
    assignee: z.string().nullable(),
    substatus: z.string().nullable().describe('Sub-state within the lane, e.g. blocked, review'),
    slug: z.string().nullable().describe('Name unique within the project'),
    claim: Claim().nullable(),
    parentId: z.string().nullable(),
    position: z.number(),
    version: z.number().int(),
    blockedBy: z.array(z.string()).describe('Ids of tasks that block this one'),
    openBlockers: z.array(z.string()).describe('The blockedBy ids not yet done or canceled: what this task still waits for'),
    blocks: z.array(z.string()).describe('Ids of tasks this one blocks'),
    children: z.array(z.string()),
    isReady: z.boolean(),
    checklistProgress: Progress(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
export type TaskSummary = z.infer<ReturnType<typeof TaskSummary>>;

/** A list row: the summary, with the long fields the caller asked for (`include`). */
export const ListedTask = lazy(() =>
  TaskSummary().extend({
    description: z.string().optional(),
    links: Links().optional(),
    completedAt: z.string().nullable().optional(),
    closeReason: z.string().nullable().optional(),
    origin: z.string().nullable().optional(),
  }),
);

/** The full task `get` returns. */
export const Task = lazy(() =>
  TaskSummary().extend({
    description: z.string(),
    checklist: z.array(ChecklistItem()),
    comments: z.array(Comment()),
    links: Links(),
    anchors: z.array(z.string()),
    touches: z.array(z.string()).describe('Paths or globs it edits; a live claim reserves them'),
    evidence: Evidence().nullable().describe('What its completion showed: verified (commit found here) or reported; null: none'),
    checkpoint: Checkpoint().nullable().describe('The latest hand-on for the next agent'),
    closeReason: z.string().nullable(),
    origin: z.string().nullable(),
    documentPath: z.string().nullable(),
    childProgress: Progress().nullable().describe('Roll-up of children (done/total) when the task has children'),
    completedAt: z.string().nullable(),
    archivedAt: z.string().nullable(),
    deletedAt: z.string().nullable(),
  }),
);
export type Task = z.infer<ReturnType<typeof Task>>;

/** The long fields a list row may add (a list's `include`): lists carry summaries without them. */
export const DETAIL_FIELDS = ['description', 'links', 'completedAt', 'closeReason', 'origin'] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];
