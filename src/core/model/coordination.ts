/** Shapes of coordination data on a task: reserved paths, where a claim was made, completion evidence, checkpoints. */
import * as z from 'zod';
import { lazy } from './lazy.js';
import { isSafeUrl } from '../rules/safe-url.js';

const noControl = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

export const TouchPath = z
  .string()
  .trim()
  .min(1, 'touches entries must not be empty')
  .max(1000, 'touches entries must be at most 1,000 characters')
  .refine(noControl, 'touches entries must not contain control characters');
export const Touches = z.array(TouchPath).max(100).describe('Repo-relative paths or globs it edits; a live claim reserves them');

/** Where a claim was made: the worktree, its branch and HEAD then (from the caller's working directory or MCP roots). */
export const ClaimWhere = lazy(() => z.object({ worktree: z.string(), branch: z.string().nullable(), head: z.string().nullable() }));
export type ClaimWhere = z.infer<ReturnType<typeof ClaimWhere>>;

export const EvidenceInput = lazy(() =>
  z
    .object({
      // Refinements rather than a pattern and lengths: complete_task is in every default tool list.
      commit: z
        .string()
        .trim()
        .refine((s) => /^[0-9a-fA-F]{7,40}$/.test(s), 'commit must be a git SHA: 7 to 40 hex digits')
        .optional(),
      prUrl: z
        .string()
        .trim()
        .refine((u) => u.length <= 1000 && isSafeUrl(u, { schemes: ['http:', 'https:'] }), 'prUrl must be an http or https URL of at most 1,000 characters')
        .optional(),
      test: z
        .object({
          command: z
            .string()
            .trim()
            .refine((s) => s.length > 0 && s.length <= 1000, 'test.command must be 1 to 1,000 characters'),
          exitCode: z.number().int(),
        })
        .strict()
        .optional(),
    })
    .strict()
    .describe('What shows it is done: commit SHA, PR url, test command and exit code'),
);
export type EvidenceInput = z.infer<ReturnType<typeof EvidenceInput>>;

/** Evidence as stored: `verified` when the commit was found in the project's repository on this machine, else `reported`. */
export const Evidence = lazy(() =>
  z.object({
    commit: z.string().optional(),
    prUrl: z.string().optional(),
    test: z.object({ command: z.string(), exitCode: z.number().int() }).optional(),
    status: z.enum(['verified', 'reported']),
    at: z.string(),
    actor: z.string(),
  }),
);
export type Evidence = z.infer<ReturnType<typeof Evidence>>;

const Line = z.string().trim().min(1).max(500);
export const CheckpointInput = lazy(() =>
  z.object({
    summary: z.string().trim().min(1).max(4000).describe('What is done and what you learned'),
    next: z.string().trim().max(2000).optional().describe('The next step'),
    head: z
      .string()
      .trim()
      .regex(/^[0-9a-fA-F]{7,40}$/, 'head must be a git SHA: 7 to 40 hex digits')
      .optional()
      .describe('git HEAD now (default: read from your working directory)'),
    changedFiles: z.array(Line).max(200).optional().describe('Files you changed so far, repo-relative'),
    questions: z.array(Line).max(20).optional().describe('Open questions for whoever goes on'),
  }),
);

/** A hand-on for the next agent; the latest is on the task, every one in its history. */
export const Checkpoint = lazy(() =>
  z.object({
    summary: z.string(),
    next: z.string().optional(),
    head: z.string().optional(),
    changedFiles: z.array(z.string()).optional(),
    questions: z.array(z.string()).optional(),
    at: z.string(),
    actor: z.string(),
  }),
);
export type Checkpoint = z.infer<ReturnType<typeof Checkpoint>>;
