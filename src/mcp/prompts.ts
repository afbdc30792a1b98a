/** MCP prompts: work-next, plan-feature and standup — short scripts naming the tools to call, in order. */
import { completable, type McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

const user = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

export function registerPrompts(server: McpServer, projectKeys: () => Promise<string[]>): void {
  const projectArg = completable(z.string().optional().describe('Project key; default the session project'), async (v) => (await projectKeys()).filter((k) => k.startsWith((v ?? '').toUpperCase())));
  const inProject = (p?: string) => (p ? ` {project: "${p}"}` : '');

  server.registerPrompt(
    'work-next',
    {
      title: 'Work on the next task',
      description: 'Find, claim and start the next ready task, keep its checklist current, and complete it.',
      argsSchema: z.object({ project: projectArg }),
    },
    ({ project }) =>
      user(
        [
          `Work on the next ready task${project ? ` in project ${project}` : ''} using the cairn tools:`,
          `1. Call next_tasks${inProject(project)}. If it is empty, read what it says is blocking the queue and work on that blocker instead (get_task on it).`,
          '2. claim_task {id} on the first task you will really do. If it answers ALREADY_CLAIMED, take the next one.',
          '3. get_task {id}: read the description, checklist, comments and blockers before you start.',
          '4. As you finish each step, update_checklist {id, ops: [{op: "check", index}]}; add items you discover with {op: "add", text}.',
          '5. Record findings with add_comment {id, body, kind: "research"}. If the work takes long, call claim_task again to renew the lease.',
          '6. When done, complete_task {id, comment: "<what you changed and how it was tested>"}; it lists the tasks this unblocked (nowReady).',
          '7. If you must stop early, release_task {id} with a comment saying where you left off.',
        ].join('\n'),
      ),
  );

  server.registerPrompt(
    'plan-feature',
    {
      title: 'Plan a feature',
      description: 'Break a feature into tasks with dependencies and checklists.',
      argsSchema: z.object({ feature: z.string().describe('What to build, in a sentence or a paragraph'), project: projectArg }),
    },
    ({ feature, project }) =>
      user(
        [
          `Plan this feature as cairn tasks${project ? ` in project ${project}` : ''}:`,
          '',
          feature,
          '',
          `1. search_tasks {query: "<key words>"}${project ? ` with project: "${project}"` : ''} so you do not duplicate existing tasks.`,
          '2. create_task one epic (kind: "epic") for the feature.',
          '3. create_task each step as a task with parentId: the epic id, a description saying what "done" means, a checklist of concrete steps, and priority.',
          '4. Order them: pass blockedBy when creating, or add_dependency {taskId, blockedBy} afterwards (cycles are refused with CYCLE_DETECTED).',
          '5. Finish with board_overview and next_tasks to check the first tasks are ready and the rest wait on them.',
        ].join('\n'),
      ),
  );

  server.registerPrompt(
    'standup',
    {
      title: 'Stand-up summary',
      description: 'What changed since a given time, what is in progress, and what is blocked.',
      argsSchema: z.object({ since: z.string().optional().describe('ISO time; default 24 hours ago'), project: projectArg }),
    },
    ({ since, project }) => {
      const from = since ?? new Date(Date.now() - 24 * 3600 * 1000).toISOString();
      return user(
        [
          `Write a short stand-up for${project ? ` project ${project}` : ' the current project'} covering changes since ${from}:`,
          `1. list_tasks {updatedSince: "${from}", includeDone: true, sort: "updated", fields: ["statusCategory", "updatedAt"]${project ? `, project: "${project}"` : ''}}: what moved, what was completed.`,
          `2. board_overview${inProject(project)}: what is in progress and by whom, and what is blocked by what.`,
          `3. next_tasks${inProject(project)}: what is ready to pick up next.`,
          'Answer in three parts: Done, In progress, Blocked (with the blocking ids). Use task ids throughout.',
        ].join('\n'),
      );
    },
  );
}
