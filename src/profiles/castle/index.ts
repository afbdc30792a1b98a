/**
 * The castle profile (seeds 000 and 001): Castle's four read tools, and its later write tools behind
 * `--toolsets write`. Castle's task is a Cairn task in a castle-template project: state = status,
 * kind = kind, research content = research comments, branch/worktree/PR/GitHub issue = links.
 */
import { errorOutput } from '../error-text.js';
import { PROFILE_SERVER_NAMES, type Profile } from '../profile.js';
import { castleReadTools } from './read-tools.js';
import { castleWriteTools } from './write-tools.js';

export const castleProfile: Profile = {
  name: 'castle',
  serverName: PROFILE_SERVER_NAMES.castle,
  instructions: 'Castle tasks for this project. Use castle_list_tasks, castle_get_task, castle_search_tasks or castle_task_summary when the user asks about tasks, project status or task details.',
  template: 'castle',
  defaultProject: { key: 'CASTLE', name: 'Castle tasks' },
  workspaceEnv: 'CASTLE_DB_PATH',
  linkKind: 'castle',
  projectPathEnv: 'CASTLE_PROJECT_PATH',
  toolsets: ['write'],
  tools: [...castleReadTools, ...castleWriteTools],
  toolFor: { get_task: 'castle_get_task', list_tasks: 'castle_list_tasks', search_tasks: 'castle_search_tasks', create_task: 'castle_create_task', update_task: 'castle_update_task' },
  error: (err) => errorOutput(err),
};
