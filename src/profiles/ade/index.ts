/**
 * The Principal ADE profile (seed 003): submit_dependency_task hands a task to a dependency's
 * repository (never lost: queued in the outbox while a remote server is away) and
 * get_dependency_task_doc finds its plan document, over the native handoff ops.
 */
import { PROFILE_SERVER_NAMES, type Profile } from '../profile.js';
import { adeError, adeTools } from './tools.js';

export const adeProfile: Profile = {
  name: 'ade',
  serverName: PROFILE_SERVER_NAMES.ade,
  instructions: 'Principal ADE dependency tools: submit_dependency_task hands work to a dependency repository; get_dependency_task_doc gives the plan document to open.',
  template: 'default',
  defaultProject: { key: 'ADE', name: 'ADE tasks' },
  tools: adeTools,
  toolFor: { submit_handoff: 'submit_dependency_task', get_task_document: 'get_dependency_task_doc' },
  error: (err) => adeError(err),
};
