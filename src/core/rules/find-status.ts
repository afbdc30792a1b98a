/** The one way a status name given by a caller (CLI, MCP, REST, a workflow edit) is matched to a project's workflow. */
import { CairnError } from '../errors.js';
import type { Status } from '../model/workflow.js';

/**
 * The status named `name`, matched against the trimmed, lower-cased text (status names are
 * lower-case by schema, so "In_Progress " finds `in_progress`); a miss is INVALID_STATUS listing
 * the workflow. Every caller uses this, so a name that works for a task also works for a workflow edit.
 */
export function findStatus(statuses: readonly Status[], name: string, projectKey: string): Status {
  const wanted = name.trim().toLowerCase();
  const s = statuses.find((x) => x.name === wanted);
  if (!s) {
    throw new CairnError('INVALID_STATUS', `"${name}" is not a status of project ${projectKey}. Valid statuses: ${statuses.map((x) => `${x.name} (${x.category})`).join(', ')}.`, {
      suggestions: [`Use one of: ${statuses.map((x) => x.name).join(', ')}`, `get_project {key: "${projectKey}"} to see the workflow`],
      details: { valid: statuses.map((x) => x.name) },
    });
  }
  return s;
}
