/**
 * A person approves what an agent proposes, where the host can ask: before an agent takes over a
 * card another agent holds, and before it hands a task to another project, the server asks the
 * person through elicitation (one form: approve, and an optional note). Declined or cancelled, the
 * call is refused and nothing changes. Hosts without elicitation proceed as before; the views'
 * buttons are how a person decides there (completions wait in a review lane: web/ui/approvals.tsx).
 *
 * Written once for both protocol eras: the tool returns `input_required`, which 2026 clients answer
 * by retrying with the person's answer, and which the SDK turns into an `elicitation/create` request
 * for 2025 clients.
 */
import { type InputRequiredResult, inputRequired, inputResponse, type McpServer } from '@modelcontextprotocol/server';
import { CairnError } from '../core/errors.js';
import { runOp, type OpContext } from '../ops/index.js';
import { getTaskOp } from '../ops/task-ops.js';
import { clientCapabilities } from './apps.js';

const KEY = 'cairn_approval';

const FORM = {
  type: 'object' as const,
  properties: {
    approve: { type: 'boolean' as const, title: 'Approve', description: 'Let the agent go ahead', default: true },
    note: { type: 'string' as const, title: 'Note', description: 'Optional: recorded with the refusal or shown to the agent' },
  },
  required: ['approve'],
};

type Args = Record<string, unknown>;

/** What the person is asked, or undefined when the call needs no approval. */
async function question(tool: string, args: Args, ctx: OpContext): Promise<string | undefined> {
  if (tool === 'claim_task' && args.takeover === true && typeof args.id === 'string') {
    const { task } = await runOp(getTaskOp, ctx, { id: args.id });
    const claim = task.claim;
    if (!claim || claim.actor === ctx.actor || Date.parse(claim.expiresAt) <= Date.now()) return undefined;
    return `${ctx.actor} asks to take over ${task.id} “${task.title}” from ${claim.actor}, whose lease runs until ${new Date(claim.expiresAt).toLocaleTimeString()}. Approve?`;
  }
  if (tool === 'submit_handoff') {
    const target = [args.target, args.repository].filter((v) => typeof v === 'string').join(' in ') || 'another project';
    return `${ctx.actor} asks to hand “${String(args.title ?? '')}” to ${target}. Approve?`;
  }
  return undefined;
}

const elicits = (server: McpServer, reqCtx: unknown): boolean => clientCapabilities(server, reqCtx)?.elicitation !== undefined;

/**
 * Before a call runs: undefined to go ahead, an `input_required` result to ask the person first,
 * or a refusal when the person said no.
 */
export async function approvalGate(server: McpServer, tool: string, args: Args, reqCtx: unknown, ctx: OpContext): Promise<InputRequiredResult | undefined> {
  if (!elicits(server, reqCtx)) return undefined;
  const responses = (reqCtx as { mcpReq?: { inputResponses?: Record<string, unknown> } }).mcpReq?.inputResponses;
  const answer = inputResponse(responses, KEY);
  if (answer.kind === 'missing') {
    const message = await question(tool, args, ctx);
    return message ? inputRequired({ inputRequests: { [KEY]: inputRequired.elicit({ message, requestedSchema: FORM }) } }) : undefined;
  }
  if (answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.approve === true) return undefined;
  const note = answer.kind === 'elicit' && typeof answer.content?.note === 'string' && answer.content.note.trim() ? ` Their note: ${answer.content.note.trim()}` : '';
  throw new CairnError('FORBIDDEN', `The person did not approve ${tool}${typeof args.id === 'string' ? ` on ${args.id}` : ''}. Nothing was changed.${note}`, {
    suggestions: ['Ask the person what they want instead', 'Work on another task: next_tasks'],
    details: { reason: 'declined' },
  });
}
