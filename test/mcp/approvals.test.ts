/**
 * A person approves takeovers and handoffs where the host can ask (elicitation), with both SDK
 * clients: the 2025 client gets an elicitation/create request, the 2026 client an input_required
 * round that it answers by retrying. Declined, nothing changes; a host that cannot ask is not asked.
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { call, connectV1, ENTRY, ok } from './helpers.js';

let ws: TempWorkspace;
beforeAll(async () => {
  ws = tempWorkspace('cairn-mcp-approvals-');
  const c = await connectV1({ db: ws.db, env: { CAIRN_ACTOR: 'agent:first' } });
  await ok(c, 'create_project', { key: 'APR', name: 'Approvals' });
  await ok(c, 'create_project', { key: 'OPS', name: 'Operations' });
  for (const title of ['One', 'Two', 'Three', 'Four']) {
    const { data } = await ok(c, 'create_task', { project: 'APR', title });
    await ok(c, 'claim_task', { id: (data.task as { id: string }).id });
  }
  await c.close();
});
afterAll(() => ws?.cleanup());

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
type Asking = { asked: string[]; answer: Answer; close(): Promise<void>; callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> };

const server = (actor: string, args: string[] = []) => ({
  command: process.execPath,
  args: [ENTRY, '--db', ws.db, ...args],
  env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CAIRN_ACTOR: actor },
  stderr: 'pipe' as const,
});

/** A host that can ask: it records each question and gives `answer`. */
async function askingV1(actor: string, args: string[] = []): Promise<Asking> {
  const c = new ClientV1({ name: 'host', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const host = { asked: [] as string[], answer: { action: 'accept', content: { approve: true } } as Answer };
  c.setRequestHandler(ElicitRequestSchema, async (r) => {
    host.asked.push(r.params.message);
    return host.answer;
  });
  await c.connect(new StdioV1(server(actor, args)));
  return Object.assign(host, { close: () => c.close(), callTool: (p: { name: string; arguments?: Record<string, unknown> }) => c.callTool(p) });
}

async function askingV2(actor: string, args: string[] = []): Promise<Asking> {
  const c = new ClientV2({ name: 'host', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } });
  const host = { asked: [] as string[], answer: { action: 'accept', content: { approve: true } } as Answer };
  c.setRequestHandler('elicitation/create', async (r) => {
    host.asked.push((r.params as { message: string }).message);
    return host.answer as never;
  });
  await c.connect(new StdioV2(server(actor, args)));
  return Object.assign(host, { close: () => c.close(), callTool: (p: { name: string; arguments?: Record<string, unknown> }) => c.callTool(p) as Promise<unknown> });
}

const holder = async (id: string) => {
  const c = await connectV1({ db: ws.db });
  try {
    return ((await ok(c, 'get_task', { id })).data.task as { claim: { actor: string } | null }).claim?.actor;
  } finally {
    await c.close();
  }
};

describe.each([
  ['v1 (2025-11-25: elicitation/create)', askingV1, 'APR-1', 'APR-2'],
  ['v2 (2026-07-28: input_required)', askingV2, 'APR-3', 'APR-4'],
] as const)('approvals with the %s client', (_name, open, declinedId, approvedId) => {
  it('asks before a takeover; declined, the claim stays with its holder', async () => {
    const host = await open('agent:second');
    try {
      host.answer = { action: 'accept', content: { approve: false, note: 'first is nearly done' } };
      const r = await call(host, 'claim_task', { id: declinedId, takeover: true });
      expect(host.asked).toHaveLength(1);
      expect(host.asked[0]).toMatch(new RegExp(`^agent:second asks to take over ${declinedId} “.+” from agent:first, whose lease runs until .+\\. Approve\\?$`));
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(new RegExp(`^FORBIDDEN: The person did not approve claim_task on ${declinedId}\\. Nothing was changed\\. Their note: first is nearly done`));
      expect(await holder(declinedId)).toBe('agent:first');
      host.answer = { action: 'cancel' };
      expect((await call(host, 'claim_task', { id: declinedId, takeover: true })).text).toMatch(/^FORBIDDEN: The person did not approve/);
      expect(await holder(declinedId)).toBe('agent:first');
    } finally {
      await host.close();
    }
  });

  it('approved, the takeover happens; a plain claim or a card nobody holds asks nothing', async () => {
    const host = await open('agent:second');
    try {
      await ok(host, 'claim_task', { id: approvedId, takeover: true });
      expect(host.asked).toHaveLength(1);
      expect(await holder(approvedId)).toBe('agent:second');
      // Its own claim again (a renewal): no question.
      await ok(host, 'claim_task', { id: approvedId, takeover: true });
      expect(host.asked).toHaveLength(1);
    } finally {
      await host.close();
    }
  });

  it('asks before a handoff to another project', async () => {
    const host = await open('agent:second', ['--toolsets', 'default,handoff']);
    try {
      host.answer = { action: 'decline' };
      const r = await call(host, 'submit_handoff', { target: 'OPS', title: 'Rotate the keys', from: 'APR' });
      expect(host.asked).toEqual(['agent:second asks to hand “Rotate the keys” to OPS. Approve?']);
      expect(r.text).toMatch(/^FORBIDDEN: The person did not approve submit_handoff\. Nothing was changed\./);
      host.answer = { action: 'accept', content: { approve: true } };
      const made = await ok(host, 'submit_handoff', { target: 'OPS', title: 'Rotate the keys', from: 'APR' });
      expect(made.data.taskId).toMatch(/^OPS-\d+$/);
    } finally {
      await host.close();
    }
  });
});

it('does not ask a host that cannot (no elicitation): the takeover goes ahead as before', async () => {
  const c = await connectV1({ db: ws.db, env: { CAIRN_ACTOR: 'agent:third' } });
  try {
    await ok(c, 'claim_task', { id: 'APR-2', takeover: true });
    expect(await holder('APR-2')).toBe('agent:third');
  } finally {
    await c.close();
  }
});
