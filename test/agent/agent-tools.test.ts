/**
 * In-process tools for agent SDKs (seed 002, "Agent SDK Integration"): the real Vercel AI SDK
 * (`ai`) runs Cairn's tx tools through generateText, driven by its test language model (no
 * network, no process); tools share one connection; the seed's status-filter bug cannot happen;
 * results also come in the MCP shape the Claude Agent SDK's tool handlers return.
 */
import { generateText, stepCountIs, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { createTools, type AgentTools, type CairnError } from '../../src/agent/index.js';
import { openCairn } from '../../src/index.js';
import { TaskWithDeps } from '../../src/profiles/tx/task-with-deps.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';

let ws: TempWorkspace;
const opened: AgentTools[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
  ws?.cleanup();
});
const open = (...a: Parameters<typeof createTools>) => {
  const t = createTools(...a);
  opened.push(t);
  return t;
};

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const toolCalls = (...calls: Array<[string, Record<string, unknown>]>) => ({
  content: calls.map(([toolName, input], i) => ({ type: 'tool-call' as const, toolCallId: `${toolName}-${i}`, toolName, input: JSON.stringify(input) })),
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
  usage,
  warnings: [],
});
const finalText = (text: string) => ({ content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: 'end_turn' }, usage, warnings: [] });

describe('agent tools with the Vercel AI SDK', () => {
  it("generateText runs tx's tools in-process: add, block, done returns nowReady", async () => {
    ws = tempWorkspace('cairn-agent-');
    const cairn = open({ profile: 'tx', db: ws.db, actor: 'agent:ai-sdk' });
    const tools: ToolSet = Object.fromEntries(cairn.tools.map((t) => [t.name, tool({ description: t.description, inputSchema: t.inputSchema, execute: t.execute })]));
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCalls(['tx_add', { title: 'Write the schema', score: 10 }], ['tx_add', { title: 'Write the migration' }]),
        toolCalls(['tx_block', { taskId: 'TX-2', blockerId: 'TX-1' }]),
        toolCalls(['tx_done', { id: 'TX-1' }]),
        finalText('TX-1 is done and TX-2 is ready.'),
      ] as never,
    });
    const result = await generateText({ model, tools, prompt: 'Plan the database work', stopWhen: stepCountIs(6) });
    expect(result.text).toBe('TX-1 is done and TX-2 is ready.');
    const results = result.steps.flatMap((s) => s.toolResults);
    expect(results.map((r) => r.toolName)).toEqual(['tx_add', 'tx_add', 'tx_block', 'tx_done']);
    const done = results[3]!.output as { task: unknown; nowReady: string[] };
    expect(done.nowReady).toEqual(['TX-2']);
    expect(() => TaskWithDeps.strict().parse(done.task)).not.toThrow();
    // The model was shown Cairn's tools with their schemas.
    const offered = model.doGenerateCalls[0]!.tools!.map((t) => t.name);
    expect(offered).toEqual(expect.arrayContaining(['tx_ready', 'tx_add', 'tx_done', 'tx_block']));
    // The writes are in the workspace, recorded under the agent's name.
    const check = openCairn({ db: ws.db });
    try {
      expect((await check.call('get_task', { id: 'TX-2' })).task).toMatchObject({ isReady: true, blockedBy: ['TX-1'] });
      const { events } = await check.call('task_history', { id: 'TX-1' });
      expect(events.every((e) => e.actor === 'agent:ai-sdk')).toBe(true);
    } finally {
      await check.close();
    }
  });

  it('a refused call reaches the model as a tool error and changes nothing', async () => {
    ws = tempWorkspace('cairn-agent-');
    const cairn = open({ profile: 'tx', db: ws.db });
    const tools: ToolSet = Object.fromEntries(cairn.tools.map((t) => [t.name, tool({ description: t.description, inputSchema: t.inputSchema, execute: t.execute })]));
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['tx_show', { id: 'TX-404' }]), finalText('Not found.')] as never });
    const result = await generateText({ model, tools, prompt: 'Show TX-404', stopWhen: stepCountIs(3) });
    const errors = result.steps.flatMap((s) => s.content).filter((p) => p.type === 'tool-error');
    expect(errors).toHaveLength(1);
    const error = (errors[0] as { error: CairnError }).error;
    expect(error.message).toMatch(/^Task TX-404 does not exist/);
    expect(error.code).toBe('TASK_NOT_FOUND');
  });
});

describe('agent tools: one workspace, one connection', () => {
  it('every createTools on a workspace shares one store, closed when the last user closes', async () => {
    ws = tempWorkspace('cairn-agent-');
    const a = open({ profile: 'tx', db: ws.db });
    const b = open({ db: ws.db });
    expect(a.store).toBe(b.store);
    await a.tools.find((t) => t.name === 'tx_add')!.execute({ title: 'Shared' });
    expect(((await b.tools.find((t) => t.name === 'get_task')!.execute({ id: 'TX-1' })) as { task: { title: string } }).task.title).toBe('Shared');
    await a.close();
    // Still open for b.
    expect(((await b.tools.find((t) => t.name === 'list_tasks')!.execute({ allProjects: true })) as { total: number }).total).toBe(1);
  });
});

describe("agent tools: seed 002's status-filter bug cannot happen in-process", () => {
  it('tx_list {status} filters exactly, and an unknown status is refused instead of ignored', async () => {
    ws = tempWorkspace('cairn-agent-');
    const tools = open({ profile: 'tx', db: ws.db }).tools;
    const run = (name: string, args: unknown) => tools.find((t) => t.name === name)!.execute(args);
    await run('tx_add', { title: 'one' });
    await run('tx_add', { title: 'two' });
    await run('tx_update', { id: 'TX-2', status: 'ready' });
    // In-process, tx_list returns TaskWithDeps[] as the seed's tool() handler does.
    const ready = (await run('tx_list', { status: 'ready' })) as Array<{ id: string; status: string }>;
    expect(ready.map((t) => t.id)).toEqual(['TX-2']);
    await expect(run('tx_list', { status: 'bogus' })).rejects.toThrow(/status/);
    await expect(run('tx_list', { status: 42 })).rejects.toThrow(/status/);
  });
});

describe('agent tools: the Claude Agent SDK shape', () => {
  it('call() answers an MCP tool result (text blocks, structuredContent, isError) and the schema has a raw shape', async () => {
    ws = tempWorkspace('cairn-agent-');
    const tools = open({ profile: 'castle', db: ws.db, toolsets: ['write'], env: { CASTLE_PROJECT_PATH: ws.dir } }).tools;
    const create = tools.find((t) => t.name === 'castle_create_task')!;
    expect(Object.keys(create.inputSchema.shape)).toContain('title');
    const r = await create.call({ title: 'From the Claude Agent SDK', kind: 'bug' });
    expect(r.isError).toBeUndefined();
    expect(r.content[0]!.type).toBe('text');
    const list = await tools.find((t) => t.name === 'castle_list_tasks')!.call({});
    expect(list.content[0]!.text).toContain('**From the Claude Agent SDK** (new, bug)');
    const bad = await create.call({ title: '' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toMatch(/^VALIDATION_ERROR/);
  });

  it('an unknown profile is refused, naming the valid ones', () => {
    expect(() => createTools({ profile: 'nope' })).toThrow(/Valid profiles: native, castle, tx/);
  });
});

describe("agent tools: seed 002's Agent SDK tests, unchanged, against createTools", () => {
  // The seed's fixtures, made through the same tools: two subtasks of an epic block a third task.
  async function seeded() {
    ws = tempWorkspace('cairn-agent-');
    const agentTasksTools = open({ profile: 'tx', db: ws.db }).tools;
    const run = (name: string, args: unknown) => agentTasksTools.find((t) => t.name === name)!.execute(args) as Promise<any>;
    const auth = (await run('tx_add', { title: 'Authentication', score: 900 })).id as string;
    const FIXTURES = {
      TASK_AUTH: auth,
      TASK_JWT: (await run('tx_add', { title: 'JWT signing', parentId: auth, score: 800 })).id as string,
      TASK_LOGIN: (await run('tx_add', { title: 'Login endpoint', parentId: auth, score: 700 })).id as string,
      TASK_BLOCKED: (await run('tx_add', { title: 'Session handling', score: 600 })).id as string,
    };
    await run('tx_block', { taskId: FIXTURES.TASK_BLOCKED, blockerId: FIXTURES.TASK_JWT });
    await run('tx_block', { taskId: FIXTURES.TASK_BLOCKED, blockerId: FIXTURES.TASK_LOGIN });
    return { agentTasksTools, FIXTURES, run };
  }

  it('tx_ready tool returns TaskWithDeps[]', async () => {
    const { agentTasksTools } = await seeded();
    const tool = agentTasksTools.find((t) => t.name === 'tx_ready')!;
    const result = (await tool.execute({ limit: 5 })) as unknown[];
    expect(result.length).toBeGreaterThan(0);
    for (const task of result) {
      expect(task).toHaveProperty('blockedBy');
      expect(task).toHaveProperty('blocks');
      expect(task).toHaveProperty('isReady');
      expect(() => TaskWithDeps.strict().parse(task)).not.toThrow();
    }
    // The seed's SDK tool bounds limit at 10 (its MCP tool at 20).
    expect(((await tool.execute({ limit: 10 })) as unknown[]).length).toBe(3);
    await expect(tool.execute({ limit: 11 })).rejects.toThrow(/limit/);
  });

  it('tx_done tool returns nowReady list', async () => {
    const { agentTasksTools, FIXTURES } = await seeded();
    const doneTool = agentTasksTools.find((t) => t.name === 'tx_done')!;
    await doneTool.execute({ id: FIXTURES.TASK_JWT });
    const result = await doneTool.execute({ id: FIXTURES.TASK_LOGIN });
    expect(result).toHaveProperty('nowReady');
    expect(Array.isArray((result as { nowReady: unknown }).nowReady)).toBe(true);
    expect((result as { nowReady: string[] }).nowReady).toEqual([FIXTURES.TASK_BLOCKED]);
  });

  it("tx_add and tx_show return the TaskWithDeps itself, tx_list the array, as the seed's handlers do; call() keeps the MCP answer", async () => {
    const { agentTasksTools, FIXTURES, run } = await seeded();
    const mcp = await agentTasksTools.find((t) => t.name === 'tx_show')!.call({ id: FIXTURES.TASK_AUTH });
    expect(mcp.structuredContent).toMatchObject({ task: { id: FIXTURES.TASK_AUTH } });
    const shown = await run('tx_show', { id: FIXTURES.TASK_BLOCKED });
    expect(TaskWithDeps.strict().parse(shown)).toMatchObject({ id: FIXTURES.TASK_BLOCKED, blockedBy: [FIXTURES.TASK_JWT, FIXTURES.TASK_LOGIN], isReady: false });
    const listed = await run('tx_list', {});
    expect(listed.map((t: { id: string }) => t.id)).toEqual(Object.values(FIXTURES));
  });

  it('a deleted task is not found, leaves every blockedBy, and its dependent becomes ready', async () => {
    const { FIXTURES, run } = await seeded();
    await run('tx_delete', { id: FIXTURES.TASK_JWT });
    await expect(run('tx_show', { id: FIXTURES.TASK_JWT })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND', message: expect.stringMatching(/deleted/) });
    expect(await run('tx_show', { id: FIXTURES.TASK_BLOCKED })).toMatchObject({ blockedBy: [FIXTURES.TASK_LOGIN], isReady: false });
    expect((await run('tx_show', { id: FIXTURES.TASK_AUTH })).children).toEqual([FIXTURES.TASK_LOGIN]);
    await run('tx_delete', { id: FIXTURES.TASK_LOGIN });
    expect(await run('tx_show', { id: FIXTURES.TASK_BLOCKED })).toMatchObject({ blockedBy: [], isReady: true });
    expect((await run('tx_ready', { limit: 10 })).map((t: { id: string }) => t.id)).toContain(FIXTURES.TASK_BLOCKED);
    expect((await run('tx_list', {})).map((t: { id: string }) => t.id)).not.toContain(FIXTURES.TASK_JWT);
  });
});
