/**
 * The devplanner profile (seed 004): DevPlanner's 17 tools and 3 resources over the native ops. A
 * project is a devplanner-template project addressed by slug (an alias); a card is a task
 * addressed by its slug; a card's lane is its status, its frontmatter status the task's substatus,
 * its tags the labels, its content the description, its tasks the checklist (by index).
 */
import { PROFILE_SERVER_NAMES, type Profile } from '../profile.js';
import { errorResult } from './errors.js';
import { devplannerResources } from './resources.js';
import { crudTools } from './tools-crud.js';
import { workflowTools } from './tools-workflow.js';

export const devplannerProfile: Profile = {
  name: 'devplanner',
  serverName: PROFILE_SERVER_NAMES.devplanner,
  instructions:
    'DevPlanner: kanban projects (by slug) with lanes 01-upcoming, 02-in-progress, 03-complete, 04-archive, and markdown cards (by slug) with task checklists (by index). Start with get_board_overview, find work with get_next_tasks, claim a card with update_card(assignee), check tasks off with toggle_task or batch_update_tasks, and move_card when done.',
  template: 'devplanner',
  defaultProject: { key: 'DP', name: 'DevPlanner' },
  workspaceEnv: 'DEVPLANNER_WORKSPACE',
  linkKind: 'devplanner',
  tools: [...crudTools, ...workflowTools],
  resources: devplannerResources,
  error: (err) => errorResult(err),
};
