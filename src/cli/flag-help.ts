/**
 * Help text for flags whose op field has no description of its own, or whose description speaks to
 * an API caller ("true un-archives") rather than to someone typing a flag. Looked up as
 * `op.field` first, then `field`; anything missing falls back to the field's name, which a test
 * forbids for the commands cairn ships.
 */

/** Field (or `op.field`) → what the flag does, in a person's words. */
const FIELD_HELP: Record<string, string> = {
  project: 'Project key or alias',
  id: 'Task id, e.g. API-12',
  taskId: 'Task id, e.g. API-12',
  parentId: 'Parent task id, e.g. API-12',
  allProjects: 'Look across all projects, not only the default one',
  title: 'New title',
  description: 'Markdown description; "-" reads it from stdin',
  labels: 'Labels, e.g. api,auth',
  'search_tasks.labels': 'Tasks with any of these labels',
  'list_tasks.labels': 'Tasks with any of these labels',
  'create_task.status': "Initial status (default: the project's first todo status)",
  'list_tasks.assignee': 'Only tasks assigned to this actor; "none" for unassigned',
  'next_tasks.assignee': 'Only tasks assigned to this actor; "none" for unassigned',
  'claim_next.assignee': 'Only tasks assigned to this actor; "none" for unassigned',
  'create_task.assignee': 'Who it is for, e.g. user or agent:claude-1',
  'release_task.toStatus': "Status to return to (default: the project's first todo status)",
  // The choices come from the template registry (the op's enum), added by schema-flags.
  'create_project.template': 'Workflow template',
  'complete_task.comment': 'Implementation notes, recorded as a comment',
  'list_tasks.labelsAll': 'Tasks with all of these labels',
  'next_tasks.labels': 'Tasks with any of these labels',
  'claim_next.labels': 'Tasks with any of these labels',
  'list_tasks.includeDone': 'Include done and canceled tasks',
  'create_task.blockedBy': 'Ids of tasks that must finish first',
  'add_dependency.blockedBy': 'The task that must finish first',
  'remove_dependency.blockedBy': 'The task that must finish first',
  'update_task.appendDescription': 'Text appended to the description (after a blank line)',
  'board_overview.cardsPerLane': 'Cards per lane, urgent first (0: counts only)',
  'submit_handoff.tags': 'Labels for the handed-off task',
  tags: 'Labels',
  addLabels: 'Labels to add',
  removeLabels: 'Labels to remove',
  checklist: 'A checklist item (repeat the flag for more)',
  anchors: 'A repository file the task is about (repeat the flag for more)',
  'links.branch': 'Git branch of the work',
  'links.worktree': 'Worktree path of the work',
  'links.prUrl': 'Pull request URL',
  'links.prNumber': 'Pull request number',
  'links.prState': 'Pull request state',
  documentPath: 'Path of the plan document',
  status: 'Move it to this status (lane)',
  'list_tasks.status': 'Only tasks in these statuses (lanes)',
  'search_tasks.status': 'Only tasks in these statuses (lanes)',
  category: 'Only tasks whose status has this category',
  kind: 'Task kind',
  'list_tasks.kind': 'Only tasks of these kinds',
  'search_tasks.kind': 'Only tasks of these kinds',
  'list_tasks.priority': 'Only tasks of these priorities',
  substatus: 'Sub-state within the lane, e.g. blocked or review',
  'list_tasks.substatus': 'Only tasks with this sub-state',
  slug: 'Name unique within the project, e.g. user-authentication',
  'list_tasks.slug': 'The task with this slug',
  assignee: 'Only tasks assigned to this actor',
  includeArchived: 'Include archived tasks',
  'list_projects.includeArchived': 'Include archived projects',
  'board_overview.includeArchived': 'Count archived tasks too',
  'get_progress.includeArchived': 'Count archived tasks too',
  includeBacklog: 'Count backlog tasks as ready too',
  limit: 'How many to show at most',
  cursor: 'nextCursor from the previous page',
  ready: 'Only tasks ready to start',
  fields: 'Fields to add to each row',
  leaseSeconds: 'Lease length in seconds',
  body: 'Markdown text',
  expectedVersion: 'Fail with VERSION_CONFLICT if the task changed since this version',
  closeReason: 'Why it closed, e.g. fixed, duplicate, wont_fix',
  restore: 'Un-archive instead',
  confirm: 'Confirm: purging cannot be undone',
  name: 'Name',
  'update_project.name': 'New name',
  root: 'Repository path; agents started inside it default to this project',
  aliases: 'Other names (package names, repo slugs) that resolve to this project',
  'get_task_document.requireExisting': 'Fail when the task has no plan document yet',
};

/** The visible `--no-…` switch of a boolean that is on by default. */
const OFF_HELP: Record<string, string> = {
  'search_tasks.includeDone': 'Leave finished tasks out (they are searched by default)',
  'get_task_document.requireExisting': 'Write a plan document from the task when there is none yet',
};

/** Help for a field: the op-specific text, else the field's, else undefined (use the schema's description). */
export function fieldHelp(op: string | undefined, path: readonly string[], schemaDescription: string | undefined): string | undefined {
  const key = path.join('.');
  const override = op ? FIELD_HELP[`${op}.${key}`] : undefined;
  if (override) return override;
  // Descriptions written for API callers about a boolean's value read badly as a flag's help.
  if (schemaDescription && !/^(true|false)\b/i.test(schemaDescription)) return schemaDescription;
  return FIELD_HELP[key] ?? schemaDescription;
}

/** Help for the `--no-…` switch of a boolean that defaults to true. */
export function offHelp(op: string | undefined, path: readonly string[], onHelp: string): string {
  return (op && OFF_HELP[`${op}.${path.join('.')}`]) ?? `Turn off (on by default): ${onHelp.replace(/\s*\(default:? true\)/i, '')}`;
}
