/**
 * The lean tool list still carries every workflow: the real Vercel AI SDK (`ai`) is given the tools
 * exactly as a stdio server advertises them (the v1 SDK client's tools/list), and its test model
 * plays a seed's workflow step by step. Each step's tool must be among those offered to the model,
 * each call must satisfy the advertised input schema (Ajv, as a host's model-side validation
 * would), and each must succeed on the server.
 */
import { generateText, jsonSchema, stepCountIs, tool, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { connectV1 } from '../mcp/helpers.js';

let ws: TempWorkspace;
beforeAll(() => {
  ws = tempWorkspace('cairn-agent-discovery-');
});
afterAll(() => ws?.cleanup());

type Step = [tool: string, args: Record<string, unknown> | ((prev: Record<string, unknown>[]) => Record<string, unknown>)];
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const ajv = new Ajv({ strict: false, allErrors: true });

/** Plays `steps` through generateText over the tools a server started with `args` lists; answers each step's structuredContent. */
async function play(args: string[], steps: Step[]) {
  const client = await connectV1({ db: ws.db, args });
  try {
    const listed = (await client.listTools()).tools;
    const tools: ToolSet = Object.fromEntries(
      listed.map((t) => {
        // The advertised schemas leave objects open (the server refuses unknown fields), so closing them
        // here makes a call that uses a parameter the list does not show fail, as it should.
        const check = ajv.compile({ ...t.inputSchema, additionalProperties: false });
        const schema = jsonSchema<Record<string, unknown>>(t.inputSchema as Parameters<typeof jsonSchema>[0], {
          validate: (value) => (check(value) ? { success: true, value: value as Record<string, unknown> } : { success: false, error: new Error(`${t.name}: ${ajv.errorsText(check.errors)}`) }),
        });
        return [t.name, tool({ description: t.description, inputSchema: schema, execute: async (input) => client.callTool({ name: t.name, arguments: input }) })];
      }),
    );
    const results: Record<string, unknown>[] = [];
    const offered: string[][] = [];
    let i = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        offered.push((options.tools ?? []).map((t) => t.name));
        const last = options.prompt.at(-1);
        if (last?.role === 'tool') {
          for (const part of last.content) {
            if (part.type !== 'tool-result') continue;
            results.push(part.output.type === 'json' ? ((part.output.value as { structuredContent?: Record<string, unknown> }).structuredContent ?? {}) : { failed: part.output });
          }
        }
        const step = steps[i++];
        if (!step) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'end_turn' }, usage, warnings: [] };
        const [name, input] = step;
        const value = typeof input === 'function' ? input(results) : input;
        return { content: [{ type: 'tool-call', toolCallId: `c${i}`, toolName: name, input: JSON.stringify(value) }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
      },
    });
    const out = await generateText({ model, tools, prompt: 'Work the board.', stopWhen: stepCountIs(steps.length + 1) });
    const calls = out.steps.flatMap((s) => s.content);
    const failures = calls.filter((c) => c.type === 'tool-error').map((c) => String((c as { error: unknown }).error));
    expect(failures).toEqual([]);
    const refused = calls.filter((c) => c.type === 'tool-result' && (c.output as { isError?: boolean }).isError).map((c) => JSON.stringify((c as { output: unknown }).output).slice(0, 300));
    expect(refused).toEqual([]);
    for (const [k, [name]] of steps.entries()) expect(offered[k], `step ${k + 1} (${name}) was not offered to the model`).toContain(name);
    return results;
  } finally {
    await client.close();
  }
}

const idOf = (r: Record<string, unknown> | undefined) => (r as { task?: { id: string } } | undefined)?.task?.id ?? `(no task in ${JSON.stringify(r)?.slice(0, 200)})`;

describe('every workflow finds its tools in the lean list', () => {
  it('the native loop on the default list: plan, pick, claim, tick, note, complete, find', async () => {
    const results = await play(
      [],
      [
        ['create_project', { key: 'LOOP', name: 'Loop' }],
        ['create_task', { project: 'LOOP', title: 'Parse the config', priority: 'high', labels: ['config'], checklist: ['read file', 'validate'] }],
        ['create_task', (r) => ({ project: 'LOOP', title: 'Apply the config', blockedBy: [idOf(r[1])] })],
        ['board_overview', { project: 'LOOP' }],
        ['next_tasks', { project: 'LOOP', limit: 5 }],
        ['claim_task', (r) => ({ id: idOf(r[1]), leaseSeconds: 600 })],
        [
          'update_checklist',
          (r) => ({
            id: idOf(r[1]),
            ops: [
              { op: 'check', index: 0 },
              { op: 'add', text: 'write tests' },
            ],
          }),
        ],
        ['add_comment', (r) => ({ id: idOf(r[1]), body: 'Parsed with the schema', kind: 'implementation' })],
        ['update_task', (r) => ({ id: idOf(r[1]), priority: 'urgent', addLabels: ['parser'], expectedVersion: (r[7] as { task: { version: number } }).task.version })],
        ['complete_task', (r) => ({ id: idOf(r[1]), closeReason: 'fixed' })],
        ['list_tasks', { project: 'LOOP', status: ['todo'], ready: true }],
        ['search_tasks', { query: 'config', project: 'LOOP' }],
        ['claim_next', { project: 'LOOP' }],
        ['release_task', (r) => ({ id: idOf(r[12]) })],
        ['get_task', (r) => ({ id: idOf(r[2]) })],
      ],
    );
    expect((results[9] as { nowReady: string[] }).nowReady).toEqual([idOf(results[2])]);
    expect((results[10] as { tasks: Array<{ id: string }> }).tasks.map((t) => t.id)).toEqual([idOf(results[2])]);
    expect((results[14] as { task: { status: string; claim: unknown } }).task).toMatchObject({ status: 'todo', claim: null });
  });

  it('coordination on default,coordination: reserved paths, a checkpoint, evidence', async () => {
    const results = await play(
      ['--toolsets', 'default,coordination'],
      [
        ['create_project', { key: 'COORD', name: 'Coordination' }],
        ['create_task', { project: 'COORD', title: 'Refactor the parser', touches: ['src/parser/**'] }],
        ['check_paths', { paths: ['src/parser/lexer.ts'] }],
        ['claim_next', { project: 'COORD', avoidOverlap: true }],
        ['checkpoint_task', (r) => ({ id: idOf(r[3]), summary: 'Lexer split out', next: 'Move the parser tables' })],
        ['complete_task', (r) => ({ id: idOf(r[3]), evidence: { test: { command: 'npm test', exitCode: 0 } } })],
      ],
    );
    expect((results[5] as { task: { status: string } }).task.status).toBe('done');
  });
});
