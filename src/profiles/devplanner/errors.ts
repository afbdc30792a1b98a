/**
 * DevPlanner's error format (seed 004): `{error, message, expected?, suggestions}` as the result's
 * JSON text. Cairn's codes become the seed's where it names one (a missing task is CARD_NOT_FOUND, a
 * bad checklist index TASK_INDEX_OUT_OF_RANGE, an unknown lane INVALID_LANE); the rest keep Cairn's.
 */
import type { CairnError, ErrorCode } from '../../core/errors.js';
import type { ToolOutput } from '../profile.js';
import { LANES } from './cards.js';

const LANE_FIELDS = new Set(['lane', 'targetLane']);

const SEED_CODES: Partial<Record<ErrorCode, { error: string; expected?: string; suggestions: string[] }>> = {
  PROJECT_NOT_FOUND: { error: 'PROJECT_NOT_FOUND', expected: 'Valid project slug from list_projects() response', suggestions: ['Call list_projects() to see available projects'] },
  TASK_NOT_FOUND: { error: 'CARD_NOT_FOUND', expected: 'Valid card slug from list_cards() response', suggestions: ['Call list_cards(projectSlug=...) to find valid card slugs'] },
  CHECKLIST_INDEX_OUT_OF_RANGE: { error: 'TASK_INDEX_OUT_OF_RANGE', expected: "A taskIndex from the card's tasks (zero-based)", suggestions: ['Call get_card() to see the current task list'] },
  INVALID_STATUS: { error: 'INVALID_LANE', expected: `One of: ${LANES.join(', ')}`, suggestions: [`Use one of: ${LANES.join(', ')}`] },
  VALIDATION_ERROR: { error: 'VALIDATION_ERROR', expected: "Arguments matching the tool's input schema", suggestions: ['Check required fields and data types in tool schema'] },
  BUSY: { error: 'FILE_OPERATION_ERROR', suggestions: ['Retry the call: the workspace database was busy with other writers'] },
};

type Issue = { path: string[]; message: string };

export interface DevPlannerError {
  error: string;
  message: string;
  expected?: string;
  suggestions: string[];
}

/** The seed's error object for a CairnError. */
export function devplannerError(err: CairnError): DevPlannerError {
  const issues = (err.details?.issues as Issue[] | undefined) ?? [];
  const badLane = issues.find((i) => LANE_FIELDS.has(i.path[0] ?? ''));
  if (err.code === 'VALIDATION_ERROR' && badLane) {
    return {
      error: 'INVALID_LANE',
      message: `${badLane.path[0]} is not a lane. ${err.message}`,
      expected: `One of: ${LANES.join(', ')}`,
      suggestions: [`Use one of: ${LANES.join(', ')}`, 'Call get_project(projectSlug=...) to see the lanes'],
    };
  }
  const seed = SEED_CODES[err.code];
  const suggestions = [...new Set([...err.suggestions, ...(seed?.suggestions ?? [])])];
  return { error: seed?.error ?? err.code, message: err.message, ...(seed?.expected ? { expected: seed.expected } : {}), suggestions };
}

export function errorResult(err: CairnError): ToolOutput {
  const e = devplannerError(err);
  return { content: [JSON.stringify(e, null, 2)], structured: { ...e }, isError: true };
}
