/** The CLI's syntax, declared once: each command binds a name, positionals, flag renames and examples onto an op. */
import type { ViewName } from './render/views.js';

export interface Binding {
  /** Command path: one word, or a group and a word (`project create`). */
  command: string;
  /** The op it runs (src/ops/index.ts). */
  op: string;
  /** One line for `cairn --help`; the op's description is shown on the command's own help. */
  summary: string;
  /** Positionals in commander syntax naming op fields: `<id>`, `[status]`, `<query...>` (words joined by spaces). */
  args?: string[];
  /** Op field → flag name, where the generic kebab-case name reads badly (`blockedBy` → `by`). */
  flags?: Record<string, string>;
  /** Op fields this command does not expose. */
  omit?: string[];
  /** Op fields this command always sets. */
  fixed?: Record<string, unknown>;
  /** Extra flags built by a dedicated module (the checklist syntax). */
  custom?: 'checklist';
  /** Fails with a clear error when no project is given or found (`add`). */
  needsProject?: boolean;
  view: ViewName;
  /** A flag that runs another op instead (`start --next` → claim_next); that op's flags join this command's. */
  alternate?: { flag: string; op: string; description: string };
  /** Past-tense verb for one-line confirmations (`Claimed API-3 …`). */
  verb?: string;
  /** The verb instead when this boolean field is set (`archive --restore` → Restored). */
  verbIf?: { field: string; verb: string };
  /** A text field `--edit` writes in $VISUAL/$EDITOR (its flag also takes "-" for stdin). */
  editable?: string;
  /** A list command: `--fields a,b` picks the task fields shown (and kept under --json). */
  fields?: boolean;
  examples: string[];
}

/**
 * Ops whose command is written by hand (src/cli/commands), for what a generated one cannot do: an
 * export streamed to standard output, an import's progress bar and the workspace it makes.
 */
export const HANDWRITTEN: Readonly<Record<string, string>> = { import_tasks: 'import', export_tasks: 'export' };

export const BINDINGS: readonly Binding[] = [
  {
    command: 'add',
    op: 'create_task',
    summary: 'Create a task',
    args: ['<title>'],
    needsProject: true,
    view: 'task-created',
    editable: 'description',
    examples: ['cairn add "Add login endpoint" --priority high --labels api,auth', 'cairn add "Write docs" --blocked-by API-1 --checklist "draft" --checklist "review"'],
  },
  {
    command: 'list',
    op: 'list_tasks',
    summary: 'List tasks (open ones unless --include-done)',
    view: 'task-list',
    fields: true,
    examples: [
      'cairn list',
      'cairn list --status todo,in_progress --priority high',
      'cairn list --ready --json',
      'cairn list --all-projects --limit 200',
      'cairn list --fields title,assignee,labels,updatedAt',
    ],
  },
  { command: 'show', op: 'get_task', summary: 'Show a task in full', args: ['<id>'], view: 'task', examples: ['cairn show API-3', 'cairn show API-3 --json'] },
  {
    command: 'ready',
    op: 'next_tasks',
    summary: 'The ready queue: what to work on next',
    view: 'ready',
    fields: true,
    examples: ['cairn ready', 'cairn ready --limit 3 --labels backend', 'cairn ready --json'],
  },
  {
    command: 'update',
    op: 'update_task',
    summary: 'Change fields of a task',
    args: ['<id>'],
    view: 'task-changed',
    verb: 'Updated',
    editable: 'description',
    examples: [
      'cairn update API-3 --priority urgent --add-labels hotfix',
      'cairn update API-3 --title "New title" --expected-version 4',
      'cairn update API-3 --no-assignee',
      'cairn update API-3 --edit   # the description in $EDITOR',
      'echo "Steps to reproduce: …" | cairn update API-3 --description -',
    ],
  },
  {
    command: 'move',
    op: 'update_task',
    summary: 'Move a task to a status (lane) and position',
    args: ['<id>', '<status>'],
    view: 'task-changed',
    verb: 'Moved',
    omit: ['title', 'description', 'appendDescription', 'kind', 'priority', 'score', 'labels', 'addLabels', 'removeLabels', 'assignee', 'parentId', 'links', 'anchors', 'closeReason', 'documentPath'],
    examples: ['cairn move API-3 review', 'cairn move API-3 todo --position 0'],
  },
  {
    command: 'start',
    op: 'claim_task',
    summary: 'Claim a task and start it (again to renew the lease)',
    args: ['[id]'],
    view: 'task-changed',
    verb: 'Claimed',
    alternate: { flag: 'next', op: 'claim_next', description: 'claim the first ready task instead (claim_next; --project, --labels, --assignee, --kind narrow it)' },
    examples: ['cairn start API-3', 'cairn start API-3 --lease-seconds 3600 --as agent:claude-1', 'cairn start --next --labels backend', 'cairn start API-3 --force   # even though blockers are open'],
  },
  {
    command: 'release',
    op: 'release_task',
    summary: 'Give up your claim on a task',
    args: ['<id>'],
    view: 'task-changed',
    verb: 'Released',
    examples: ['cairn release API-3', 'cairn release API-3 --force --to-status backlog'],
  },
  {
    command: 'done',
    op: 'complete_task',
    summary: 'Complete a task',
    args: ['<id>'],
    view: 'completed',
    examples: ['cairn done API-3', 'cairn done API-3 --comment "Implemented in #42" --close-reason fixed'],
  },
  {
    command: 'block',
    op: 'add_dependency',
    summary: 'Record that a task waits for another',
    args: ['<taskId>'],
    flags: { blockedBy: 'by' },
    view: 'blocked',
    examples: ['cairn block API-3 --by API-1'],
  },
  {
    command: 'unblock',
    op: 'remove_dependency',
    summary: 'Remove a blocker from a task',
    args: ['<taskId>'],
    flags: { blockedBy: 'by' },
    view: 'unblocked',
    examples: ['cairn unblock API-3 --by API-1'],
  },
  {
    command: 'check',
    op: 'update_checklist',
    summary: 'Edit a checklist (ops applied in the order given)',
    args: ['<id>'],
    omit: ['ops'],
    custom: 'checklist',
    view: 'checklist',
    examples: ['cairn check API-3 --check 0 --check 2', 'cairn check API-3 --add "write docs" --remove 4', 'cairn check API-3 --edit "1=Write the tests" --uncheck 1'],
  },
  {
    command: 'checkpoint',
    op: 'checkpoint_task',
    summary: 'Leave a hand-on for whoever works the task next',
    args: ['<id>', '<summary...>'],
    view: 'task-changed',
    verb: 'Checkpointed',
    examples: ['cairn checkpoint API-3 "Parser fixed; the lexer still drops tabs" --next "Fix lexer tabs" --questions "Keep CRLF?"'],
  },
  {
    command: 'paths',
    op: 'check_paths',
    summary: "Which of these paths another agent's claim reserves",
    args: ['<paths...>'],
    view: 'paths',
    examples: ['cairn paths src/api src/web/app.tsx', 'cairn paths "src/**/*.ts" --json'],
  },
  {
    command: 'comment',
    op: 'add_comment',
    summary: 'Comment on a task',
    args: ['<id>', '<body...>'],
    view: 'commented',
    examples: ['cairn comment API-3 "Looked into it: the bug is in the parser"', 'cairn comment API-3 --kind research "Options: A, B"'],
  },
  {
    command: 'search',
    op: 'search_tasks',
    summary: 'Full-text search',
    args: ['<query...>'],
    view: 'search',
    fields: true,
    examples: ['cairn search login', 'cairn search "rate limit" --no-include-done', 'cairn search auth* --json'],
  },
  { command: 'board', op: 'board_overview', summary: 'The board: lanes, cards and progress', view: 'board', examples: ['cairn board', 'cairn board --project API --cards-per-lane 10'] },
  { command: 'progress', op: 'get_progress', summary: 'Completion statistics by lane, priority and assignee', view: 'progress', examples: ['cairn progress', 'cairn progress --all-projects --json'] },
  {
    command: 'changes',
    op: 'changes_since',
    summary: 'The activity feed after a sequence number',
    view: 'changes',
    examples: ['cairn changes', 'cairn changes --since 2 --json   # events after seq 2 (lastSeq of an earlier answer)'],
  },
  { command: 'history', op: 'task_history', summary: 'Who changed what on a task', args: ['<id>'], view: 'history', examples: ['cairn history API-3', 'cairn history API-3 --limit 10 --json'] },
  { command: 'labels', op: 'list_labels', summary: 'Labels in use with counts', view: 'labels', examples: ['cairn labels', 'cairn labels --project API'] },
  {
    command: 'archive',
    op: 'archive_task',
    summary: 'Archive a task (--restore un-archives)',
    args: ['<id>'],
    view: 'task-changed',
    verb: 'Archived',
    verbIf: { field: 'restore', verb: 'Restored' },
    examples: ['cairn archive API-3', 'cairn archive API-3 --restore'],
  },
  {
    command: 'delete',
    op: 'delete_task',
    summary: 'Soft-delete a task (restorable)',
    args: ['<id>'],
    view: 'task-changed',
    verb: 'Deleted',
    examples: ['cairn delete API-3', 'cairn delete API-3 --json'],
  },
  { command: 'restore', op: 'restore_task', summary: 'Restore a deleted task', args: ['<id>'], view: 'task-changed', verb: 'Restored', examples: ['cairn restore API-3'] },
  {
    command: 'purge',
    op: 'purge_task',
    summary: 'Erase a deleted task for good (needs --yes)',
    args: ['<id>'],
    flags: { confirm: 'yes' },
    view: 'purged',
    examples: ['cairn delete API-3 && cairn purge API-3 --yes'],
  },
  {
    command: 'handoff',
    op: 'submit_handoff',
    summary: 'Hand a task to another project or repository (never lost)',
    args: ['<target>', '<title>'],
    flags: { details: 'details' },
    view: 'handoff',
    examples: [
      'cairn handoff CORE "Expose a retry hook" --details "Needed by API-12" --anchors src/retry.ts --priority high',
      'cairn handoff ../core-lib "Fix the parser" --idempotency-key api-12-parser',
      'cairn handoff @acme/core-lib "Bump zod" --tags deps',
    ],
  },
  {
    command: 'doc',
    op: 'get_task_document',
    summary: "A task's plan document: its path and status (--no-require-existing writes a shell)",
    args: ['<id>'],
    view: 'document',
    examples: ['cairn doc API-3', 'cairn doc API-3 --no-require-existing', 'cairn doc CORE-7 --repository ../core-lib --json'],
  },
  { command: 'project list', op: 'list_projects', summary: 'List projects', view: 'projects', examples: ['cairn project list', 'cairn project list --include-archived --json'] },
  {
    command: 'project create',
    op: 'create_project',
    summary: 'Create a project',
    args: ['<key>', '<name>'],
    view: 'project',
    verb: 'Created',
    editable: 'description',
    examples: ['cairn project create API "API server" --root .', 'cairn project create PLAN "Planning" --template devplanner'],
  },
  { command: 'project show', op: 'get_project', summary: 'Show a project and its workflow', args: ['<key>'], view: 'project', examples: ['cairn project show API'] },
  {
    command: 'project update',
    op: 'update_project',
    summary: 'Change a project (name, root, aliases, workflow)',
    args: ['<key>'],
    view: 'project',
    verb: 'Updated',
    editable: 'description',
    examples: [
      'cairn project update API --name "Public API" --aliases api-server',
      `cairn project update API --statuses '{"op":"add","name":"qa","category":"in_progress"}'`,
      'cairn project update API --no-root',
    ],
  },
  {
    command: 'link',
    op: 'link_source',
    summary: "Serve another program's tasks in place (Castle, DevPlanner, Backlog.md, Task Master, Beads)",
    args: ['<path>'],
    view: 'link',
    flags: { from: 'from' },
    examples: [
      'cairn link ~/dp-workspace',
      'cairn link ~/.config/Castle/castle.db',
      'cairn link ~/.config/Castle/castle.db --writable   # only while Castle is closed',
      'cairn link . --project APP   # the repository holding .taskmaster/',
    ],
  },
  {
    command: 'unlink',
    op: 'unlink_source',
    summary: 'Stop syncing a linked source (its tasks stay)',
    args: ['<path>'],
    view: 'unlinked',
    examples: ['cairn unlink ~/dp-workspace', 'cairn unlink MM'],
  },
  { command: 'links', op: 'list_links', summary: 'Linked sources and how each stands', view: 'links', examples: ['cairn links', 'cairn links --json'] },
  {
    command: 'project archive',
    op: 'archive_project',
    summary: 'Archive a project (--restore un-archives)',
    args: ['<key>'],
    view: 'project',
    verb: 'Archived',
    verbIf: { field: 'restore', verb: 'Restored' },
    examples: ['cairn project archive OLD', 'cairn project archive OLD --restore'],
  },
];
