/**
 * The model-facing surface: a committed snapshot of every tool's definition (so a change is a
 * reviewed diff), the tool-list token budget, toolsets, annotations, and the v2 client on
 * protocol 2026-07-28 (tools, resources, templates, completion, prompts).
 */
import type { Client as ClientV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS } from '../../src/ops/index.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { call, connectV1, connectV2, ok } from './helpers.js';

let ws: TempWorkspace;
beforeAll(() => {
  ws = tempWorkspace('cairn-mcp-surface-');
});
afterAll(() => ws?.cleanup());

type Tool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { properties?: Record<string, unknown> };
  outputSchema?: { properties?: Record<string, unknown> };
  annotations?: Record<string, unknown>;
};

async function toolsOf(args: string[]): Promise<Tool[]> {
  const c = await connectV1({ db: ws.db, args });
  try {
    return (await c.listTools()).tools as Tool[];
  } finally {
    await c.close();
  }
}

/** bytes/4 of name + title + description + inputSchema: what the tool list costs in every prompt. */
const tokens = (tools: Tool[]) => tools.reduce((n, t) => n + JSON.stringify({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema }).length, 0) / 4;

describe('tool surface', () => {
  it('matches the committed snapshot (names, titles, descriptions, schemas, annotations)', async () => {
    const tools = await toolsOf(['--toolsets', 'all']);
    const surface = tools.map((t) => ({ name: t.name, title: t.title, description: t.description, annotations: t.annotations, inputSchema: t.inputSchema, outputSchema: t.outputSchema }));
    await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/tools.json');
  });

  it('default toolsets are tasks + projects, exactly DESIGN §4, within 2,500 tokens and a 40 KB tools/list', async () => {
    const tools = await toolsOf([]);
    expect(tools.map((t) => t.name).sort()).toEqual(
      // DESIGN §4 plus claim_next (issue 19: claim the first ready task atomically).
      [
        'list_tasks',
        'get_task',
        'search_tasks',
        'next_tasks',
        'create_task',
        'update_task',
        'claim_task',
        'claim_next',
        'release_task',
        'complete_task',
        'add_dependency',
        'remove_dependency',
        'update_checklist',
        'add_comment',
        'board_overview',
        'list_projects',
        'get_project',
        'create_project',
      ].sort(),
    );
    expect(tokens(tools), `default tool list: ${tokens(tools)} tokens`).toBeLessThanOrEqual(2500);
    const answer = JSON.stringify({ tools }).length;
    expect(answer, `default tools/list: ${answer} bytes`).toBeLessThanOrEqual(40_000);
  });

  it('a parameter of a toolset not served is left out of the schema, comes with its toolset, and is accepted either way', async () => {
    const props = (tools: Tool[], name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
    const lean = await toolsOf([]);
    const full = await toolsOf(['--toolsets', 'default,coordination']);
    expect(props(lean, 'create_task')).not.toContain('touches');
    expect(props(full, 'create_task')).toContain('touches');
    expect(props(lean, 'complete_task')).not.toContain('evidence');
    expect(props(full, 'complete_task')).toContain('evidence');
    const c = await connectV1({ db: ws.db });
    try {
      await call(c, 'create_project', { key: 'PAR', name: 'Parser' });
      const r = await call(c, 'create_task', { project: 'PAR', title: 'Reserve the parser', touches: ['src/parser/**'] });
      expect(r.isError, r.text).toBe(false);
      const got = await call(c, 'get_task', { id: (r.data as { task: { id: string } }).task.id });
      expect((got.data as { task: { touches: string[] } }).task.touches).toEqual(['src/parser/**']);
    } finally {
      await c.close();
    }
  });

  it('a write advertises the fields every task has and answers the whole task; get_task advertises the whole shape', async () => {
    const tools = await toolsOf([]);
    const taskOf = (name: string) => (tools.find((t) => t.name === name)!.outputSchema!.properties! as Record<string, { properties: Record<string, unknown>; additionalProperties?: unknown }>).task!;
    const core = ['id', 'project', 'title', 'status', 'statusCategory', 'priority', 'version', 'blockedBy', 'blocks', 'children', 'isReady', 'checklist'];
    expect(Object.keys(taskOf('update_task').properties).sort()).toEqual([...core].sort());
    expect(taskOf('update_task').additionalProperties).toBeUndefined();
    expect(Object.keys(taskOf('get_task').properties)).toEqual(expect.arrayContaining([...core, 'description', 'comments', 'links', 'claim', 'touches']));
  });

  it('--toolsets adds history; all adds admin; unknown names are refused at start', async () => {
    const history = (await toolsOf(['--toolsets', 'tasks,history'])).map((t) => t.name);
    expect(history).toEqual(expect.arrayContaining(['task_history', 'archive_task', 'delete_task', 'get_progress', 'next_tasks']));
    expect(history).not.toContain('list_projects');
    expect((await toolsOf(['--toolsets', 'all'])).map((t) => t.name).sort()).toEqual(OPS.map((o) => o.name).sort());
    await expect(toolsOf(['--toolsets', 'nope'])).rejects.toThrow();
  });

  it('a tool from a toolset not served is unlisted, and a call to it says which toolset to add', async () => {
    const c = await connectV1({ db: ws.db });
    try {
      const r = await call(c, 'task_history', { id: 'API-1' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^FORBIDDEN: task_history is in the history toolset, which this server does not serve/);
      expect(r.text).toContain('--toolsets tasks,projects,history');
    } finally {
      await c.close();
    }
  });

  it('annotations: readOnlyHint on reads, destructiveHint on archive/delete/purge, idempotentHint where true', async () => {
    const byName = new Map((await toolsOf(['--toolsets', 'all'])).map((t) => [t.name, t]));
    for (const op of OPS) {
      const a = byName.get(op.name)!.annotations!;
      expect(a.readOnlyHint, op.name).toBe(op.readOnly);
      expect(a.idempotentHint, op.name).toBe(op.idempotent === true);
      if (!op.readOnly) expect(a.destructiveHint, op.name).toBe(op.destructive === true);
      expect(byName.get(op.name)!.title).toBe(op.title);
    }
    expect(byName.get('delete_task')!.annotations!.destructiveHint).toBe(true);
    expect(byName.get('create_task')!.annotations!.destructiveHint).toBe(false);
  });
});

describe('the v1 client on protocol 2025-11-25', () => {
  it('negotiates 2025-11-25, accepts logging/setLevel and offers the same resources and prompts', async () => {
    const c = await connectV1({ db: ws.db });
    try {
      expect(c.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, logging: {}, completions: {}, prompts: {} });
      expect(c.getInstructions()).toContain('next_tasks');
      await expect(c.setLoggingLevel('info')).resolves.toBeDefined();
      expect((await c.listResourceTemplates()).resourceTemplates).toHaveLength(2);
      expect((await c.listPrompts()).prompts).toHaveLength(3);
    } finally {
      await c.close();
    }
  });
});

describe('the v2 client on protocol 2026-07-28', () => {
  let c: ClientV2;
  beforeAll(async () => {
    c = await connectV2({ db: ws.db });
    await c.listTools(); // so the client checks structuredContent against each outputSchema
  });
  afterAll(async () => c?.close());

  it('calls tools with structured results and code-first errors', async () => {
    await ok(c, 'create_project', { key: 'WEB', name: 'Web', root: ws.dir });
    const t = await ok(c, 'create_task', { project: 'WEB', title: 'Navbar' });
    expect((t.data.task as { id: string }).id).toBe('WEB-1');
    const miss = await call(c, 'get_task', { id: 'WEB-7' });
    expect(miss.isError).toBe(true);
    expect(miss.text).toMatch(/^TASK_NOT_FOUND: /);
    const bad = await call(c, 'create_task', { project: 'WEB', title: 42 });
    expect(bad.text).toMatch(/^VALIDATION_ERROR: .*title/);
  });

  it('lists and reads resources and templates, completes keys and ids', async () => {
    const listed = (await c.listResources()).resources.map((r) => r.uri);
    expect(listed).toEqual(expect.arrayContaining(['cairn://projects', 'cairn://projects/WEB', 'cairn://tasks/WEB-1']));
    const templates = (await c.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate).sort();
    expect(templates).toEqual(['cairn://projects/{key}', 'cairn://tasks/{id}']);
    const task = await c.readResource({ uri: 'cairn://tasks/WEB-1' });
    const body = JSON.parse((task.contents[0] as { text: string }).text) as Record<string, unknown>;
    expect(body).toMatchObject({ id: 'WEB-1', title: 'Navbar', blockedBy: [], blocks: [], children: [], isReady: true });
    const board = JSON.parse(((await c.readResource({ uri: 'cairn://projects/WEB' })).contents[0] as { text: string }).text) as { lanes: unknown[] };
    expect(board.lanes.length).toBeGreaterThan(3);
    await expect(c.readResource({ uri: 'cairn://tasks/WEB-99' })).rejects.toThrow(/TASK_NOT_FOUND/);
    const keys = await c.complete({ ref: { type: 'ref/resource', uri: 'cairn://projects/{key}' }, argument: { name: 'key', value: 'w' } });
    expect(keys.completion.values).toEqual(['WEB']);
    const ids = await c.complete({ ref: { type: 'ref/resource', uri: 'cairn://tasks/{id}' }, argument: { name: 'id', value: 'WEB-' } });
    expect(ids.completion.values).toEqual(['WEB-1']);
  });

  it('offers the work-next, plan-feature and standup prompts', async () => {
    expect((await c.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['plan-feature', 'standup', 'work-next']);
    const p = await c.getPrompt({ name: 'plan-feature', arguments: { feature: 'Dark mode', project: 'WEB' } });
    const text = (p.messages[0]!.content as { text: string }).text;
    expect(text).toContain('Dark mode');
    expect(text).toContain('add_dependency');
    const w = await c.getPrompt({ name: 'work-next', arguments: {} });
    expect((w.messages[0]!.content as { text: string }).text).toContain('claim_task');
    const s = await c.getPrompt({ name: 'standup', arguments: { since: '2026-01-01T00:00:00Z' } });
    expect((s.messages[0]!.content as { text: string }).text).toContain('updatedSince: "2026-01-01T00:00:00Z"');
  });
});
