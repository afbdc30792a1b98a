/**
 * Seed 002 (tx) on Cairn, through real MCP clients over stdio (`--profile tx`): the seed's Testing
 * Strategy (TaskWithDeps compliance of every tool, dependency accuracy, nowReady, the cycle and
 * not-found errors, input limits), its texts and two content blocks, the status-filter bug of its
 * "Known Issues", and the tools/list snapshot.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { TaskWithDeps } from '../../src/profiles/tx/task-with-deps.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { connectV1, connectV2 } from '../mcp/helpers.js';

type Result = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: Record<string, any>; _meta?: Record<string, any> };
const tx = async (c: { callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> }, name: string, args: Record<string, unknown> = {}) =>
  (await c.callTool({ name, arguments: args })) as Result;
async function okTx(c: Client, name: string, args: Record<string, unknown> = {}) {
  const r = await tx(c, name, args);
  if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
  // tx's answer: the text, then the same data as JSON; structuredContent is that data.
  expect(r.content).toHaveLength(2);
  expect(JSON.parse(r.content[1]!.text)).toEqual(r.structuredContent);
  return r;
}
const expectTaskWithDeps = (t: unknown) => expect(() => TaskWithDeps.strict().parse(t)).not.toThrow();

let ws: TempWorkspace;
let c: Client;
const F = { AUTH: '', JWT: '', LOGIN: '', BLOCKED: '' };

beforeAll(async () => {
  ws = tempWorkspace('cairn-tx-');
  c = await connectV1({ env: { TX_DB: ws.db }, args: ['--profile', 'tx'] });
  F.AUTH = (await okTx(c, 'tx_add', { title: 'Authentication', score: 900 })).structuredContent!.task.id;
  F.JWT = (await okTx(c, 'tx_add', { title: 'JWT signing', parentId: F.AUTH, score: 800 })).structuredContent!.task.id;
  F.LOGIN = (await okTx(c, 'tx_add', { title: 'Login endpoint', parentId: F.AUTH, score: 700 })).structuredContent!.task.id;
  F.BLOCKED = (await okTx(c, 'tx_add', { title: 'Session handling', score: 600 })).structuredContent!.task.id;
  await okTx(c, 'tx_block', { taskId: F.BLOCKED, blockerId: F.JWT });
  await okTx(c, 'tx_block', { taskId: F.BLOCKED, blockerId: F.LOGIN });
});
afterAll(async () => {
  await c?.close();
  ws?.cleanup();
});

describe('tx profile: tools', () => {
  it('lists exactly the ten tx tools, each with a real description, matching the committed snapshot', async () => {
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['tx_ready', 'tx_show', 'tx_list', 'tx_add', 'tx_done', 'tx_update', 'tx_block', 'tx_unblock', 'tx_children', 'tx_delete']);
    for (const t of tools) expect(t.description!.length).toBeGreaterThan(20);
    const info = c.getServerVersion();
    expect(info?.name).toBe('tx');
    const surface = tools.map((t) => ({ name: t.name, description: t.description, annotations: t.annotations, inputSchema: t.inputSchema, outputSchema: t.outputSchema }));
    await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/tx-tools.json');
  });
});

describe('tx profile: TaskWithDeps compliance', () => {
  it('tx_ready, tx_show, tx_list and tx_children return every task as TaskWithDeps', async () => {
    for (const t of (await okTx(c, 'tx_ready', { limit: 10 })).structuredContent!.tasks) expectTaskWithDeps(t);
    expectTaskWithDeps((await okTx(c, 'tx_show', { id: F.JWT })).structuredContent!.task);
    const list = (await okTx(c, 'tx_list', { limit: 20 })).structuredContent!;
    expect(list.total).toBeGreaterThanOrEqual(4);
    for (const t of list.tasks) expectTaskWithDeps(t);
    const kids = (await okTx(c, 'tx_children', { id: F.AUTH })).structuredContent!.children;
    expect(kids.map((k: { id: string }) => k.id)).toEqual([F.JWT, F.LOGIN]);
    for (const t of kids) expectTaskWithDeps(t);
  });

  it('tx_add returns the created task with empty dependencies and ready', async () => {
    const task = (await okTx(c, 'tx_add', { title: 'New MCP task', score: 600 })).structuredContent!.task;
    expectTaskWithDeps(task);
    expect(task).toMatchObject({ title: 'New MCP task', score: 600, blockedBy: [], blocks: [], children: [], isReady: true, status: 'backlog' });
  });

  it('tx_update changes only the fields given and returns TaskWithDeps', async () => {
    const before = (await okTx(c, 'tx_show', { id: F.LOGIN })).structuredContent!.task;
    const task = (await okTx(c, 'tx_update', { id: F.LOGIN, score: 999 })).structuredContent!.task;
    expectTaskWithDeps(task);
    expect(task).toMatchObject({ score: 999, title: before.title, status: before.status, blockedBy: before.blockedBy });
    expect((await okTx(c, 'tx_update', { id: F.LOGIN, status: 'planning' })).content[0]!.text).toBe(`Updated: ${F.LOGIN} - Login endpoint [planning]`);
  });
});

describe('tx profile: dependency accuracy', () => {
  it('tx_show gives a blocked task its blockers and isReady false; the blockers list what they block', async () => {
    const task = (await okTx(c, 'tx_show', { id: F.BLOCKED })).structuredContent!.task;
    expect(task.blockedBy).toEqual(expect.arrayContaining([F.JWT, F.LOGIN]));
    expect(task.isReady).toBe(false);
    expect((await okTx(c, 'tx_show', { id: F.JWT })).structuredContent!.task.blocks).toContain(F.BLOCKED);
    const ready = (await okTx(c, 'tx_ready', { limit: 20 })).structuredContent!.tasks.map((t: { id: string }) => t.id);
    expect(ready).not.toContain(F.BLOCKED);
  });

  it('tx_ready ranks by score, highest first', async () => {
    const scores = (await okTx(c, 'tx_ready', { limit: 20 })).structuredContent!.tasks.map((t: { score: number }) => t.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('tx_block returns success and the blocked task with the new blocker; tx_unblock removes it', async () => {
    const extra = (await okTx(c, 'tx_add', { title: 'Extra blocker' })).structuredContent!.task.id;
    const r = await okTx(c, 'tx_block', { taskId: F.LOGIN, blockerId: extra });
    expect(r.structuredContent!.success).toBe(true);
    expect(r.structuredContent!.task.blockedBy).toContain(extra);
    expect(r.content[0]!.text).toContain(`${extra} now blocks ${F.LOGIN}`);
    const u = await okTx(c, 'tx_unblock', { taskId: F.LOGIN, blockerId: extra });
    expect(u.structuredContent).toEqual({ success: true });
    expect((await okTx(c, 'tx_show', { id: F.LOGIN })).structuredContent!.task.blockedBy).not.toContain(extra);
  });

  it('tx_done returns nowReady once the last blocker is done', async () => {
    const first = await okTx(c, 'tx_done', { id: F.JWT });
    expect(first.structuredContent!.nowReady).toEqual([]);
    expect(first.structuredContent!.task).toMatchObject({ status: 'done' });
    expect(first.structuredContent!.task.completedAt).toEqual(expect.any(String));
    const second = await okTx(c, 'tx_done', { id: F.LOGIN });
    expect(second.structuredContent!.nowReady).toContain(F.BLOCKED);
    expect(second.content[0]!.text).toContain(`Now unblocked: ${F.BLOCKED}`);
    // A finished blocker still appears in blockedBy (tx lists blocking task ids), and blocks nothing.
    const t = (await okTx(c, 'tx_show', { id: F.BLOCKED })).structuredContent!.task;
    expect(t.isReady).toBe(true);
  });
});

describe('tx profile: errors', () => {
  it('a circular dependency is refused and changes nothing', async () => {
    const a = (await okTx(c, 'tx_add', { title: 'Cycle A' })).structuredContent!.task.id;
    const b = (await okTx(c, 'tx_add', { title: 'Cycle B' })).structuredContent!.task.id;
    await okTx(c, 'tx_block', { taskId: b, blockerId: a });
    const r = await tx(c, 'tx_block', { taskId: a, blockerId: b });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toMatch(/^Error: .*cannot block.*cycle/i);
    expect(r._meta?.['cairn/error']).toMatchObject({ code: 'CYCLE_DETECTED' });
    expect((await okTx(c, 'tx_show', { id: a })).structuredContent!.task.blockedBy).toEqual([]);
  });

  it('a nonexistent task is an error naming it, with suggestions in tx tool names', async () => {
    const r = await tx(c, 'tx_show', { id: 'TX-9999' });
    expect(r.isError).toBe(true);
    // tx's text is `Error: <message>` alone; Cairn's code and suggestions ride in _meta, outside what the model reads.
    expect(r.content).toHaveLength(1);
    expect(r.content[0]!.text).toMatch(/^Error: Task TX-9999 does not exist/);
    expect(r.content[0]!.text).not.toMatch(/TASK_NOT_FOUND|Suggestions/);
    expect(r.structuredContent).toBeUndefined();
    const meta = r._meta?.['cairn/error'] as { code: string; suggestions: string[] };
    expect(meta.code).toBe('TASK_NOT_FOUND');
    expect(meta.suggestions.join('\n')).toContain('tx_show');
    expect(meta.suggestions.join('\n')).not.toMatch(/\bget_task\b|\bsearch_tasks\b/);
  });

  it('input limits: tx_ready limit 1–20 (default 5), tx_add title 1–200, tx_update status enum', async () => {
    for (const limit of [0, 21]) expect((await tx(c, 'tx_ready', { limit })).isError).toBe(true);
    for (let i = 0; i < 6; i++) await okTx(c, 'tx_add', { title: `Filler ${i}` });
    expect((await okTx(c, 'tx_ready')).structuredContent!.tasks).toHaveLength(5);
    expect((await tx(c, 'tx_add', { title: '' })).isError).toBe(true);
    expect((await tx(c, 'tx_add', { title: 'a'.repeat(201) })).isError).toBe(true);
    expect((await okTx(c, 'tx_add', { title: 'a'.repeat(200) })).structuredContent!.task.title).toHaveLength(200);
    const bad = await tx(c, 'tx_update', { id: F.AUTH, status: 'invalid' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('human_needs_to_review');
    expect((await tx(c, 'tx_list', { limit: 101 })).isError).toBe(true);
  });
});

describe('tx profile: texts', () => {
  it('tx_ready and tx_show texts carry the dependency lines', async () => {
    const ready = (await okTx(c, 'tx_ready', { limit: 5 })).content[0]!.text;
    expect(ready).toMatch(/^\d+ ready task\(s\):\n- /);
    expect(ready).toContain('blocked by:');
    expect(ready).toContain('blocks:');
    const show = (await okTx(c, 'tx_show', { id: F.AUTH })).content[0]!.text;
    expect(show.split('\n')).toEqual([
      `Task: ${F.AUTH}`,
      'Title: Authentication',
      'Status: backlog',
      'Score: 900',
      'Ready: true',
      'Blocked by: (none)',
      'Blocks: (none)',
      `Children: ${F.JWT}, ${F.LOGIN}`,
    ]);
  });
});

describe('tx profile: the status filter of "Known Issues" cannot be ignored', () => {
  it('tx_list {status} returns only that status, and an unknown status is refused, not ignored', async () => {
    await okTx(c, 'tx_update', { id: F.AUTH, status: 'ready' });
    const only = (await okTx(c, 'tx_list', { status: 'ready', limit: 100 })).structuredContent!;
    expect(only.tasks.length).toBeGreaterThan(0);
    expect(only.tasks.every((t: { status: string }) => t.status === 'ready')).toBe(true);
    const all = (await okTx(c, 'tx_list', { limit: 100 })).structuredContent!;
    expect(all.total).toBeGreaterThan(only.total);
    const bad = await tx(c, 'tx_list', { status: 'Ready' });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('status');
  });
});

describe('tx profile: workspace', () => {
  it('TX_DB names the workspace; reads of a missing one answer empty and create no file', async () => {
    const dir = tempWorkspace('cairn-tx-empty-');
    const db = join(dir.dir, 'tasks.db');
    const v2 = await connectV2({ env: { TX_DB: db }, args: ['--profile', 'tx'] });
    try {
      const r = await tx(v2, 'tx_ready');
      expect(r.content[0]!.text).toBe('No ready tasks.');
      expect(r.structuredContent).toEqual({ tasks: [] });
      expect((await tx(v2, 'tx_list')).content[0]!.text).toBe('No tasks found.');
      expect(existsSync(db)).toBe(false);
      const created = await tx(v2, 'tx_add', { title: 'First' });
      expect(created.structuredContent!.task.id).toBe('TX-1');
      expect(existsSync(db)).toBe(true);
    } finally {
      await v2.close();
      dir.cleanup();
    }
  });

  it('CAIRN_PROFILE selects the profile; an unknown profile stops the server with the valid names', async () => {
    const v1 = await connectV1({ env: { TX_DB: ws.db, CAIRN_PROFILE: 'tx' } });
    try {
      expect((await v1.listTools()).tools[0]!.name).toBe('tx_ready');
    } finally {
      await v1.close();
    }
    await expect(connectV1({ db: ws.db, args: ['--profile', 'nope'] })).rejects.toThrow();
  });
});

describe('tx profile: deletion is consistent everywhere', () => {
  it('a deleted task is not found by tx_show, leaves blockedBy and blocks, and its dependent becomes ready; restore_task brings it back', async () => {
    const blocker = (await okTx(c, 'tx_add', { title: 'Doomed blocker' })).structuredContent!.task.id;
    const dependent = (await okTx(c, 'tx_add', { title: 'Waits on the doomed one' })).structuredContent!.task.id;
    await okTx(c, 'tx_block', { taskId: dependent, blockerId: blocker });
    expect((await okTx(c, 'tx_show', { id: dependent })).structuredContent!.task).toMatchObject({ blockedBy: [blocker], isReady: false });
    await okTx(c, 'tx_delete', { id: blocker });
    const gone = await tx(c, 'tx_show', { id: blocker });
    expect(gone.isError).toBe(true);
    expect(gone.content[0]!.text).toBe(`Error: Task ${blocker} not found: it was deleted.`);
    expect(gone._meta?.['cairn/error']).toMatchObject({ code: 'TASK_NOT_FOUND' });
    expect((await okTx(c, 'tx_show', { id: dependent })).structuredContent!.task).toMatchObject({ blockedBy: [], isReady: true });
    const ready = (await okTx(c, 'tx_ready', { limit: 20 })).structuredContent!.tasks as Array<{ id: string; blockedBy: string[] }>;
    expect(ready.find((t) => t.id === dependent)).toMatchObject({ blockedBy: [] });
    // The same through the native surface of the same workspace: blockedBy agrees with readiness, and a restore undoes it.
    const native = openCairn({ db: ws.db });
    try {
      expect((await native.call('get_task', { id: dependent })).task).toMatchObject({ blockedBy: [], openBlockers: [], isReady: true });
      await native.call('restore_task', { id: blocker });
      expect((await native.call('get_task', { id: dependent })).task).toMatchObject({ blockedBy: [blocker], isReady: false });
      expect((await native.call('get_task', { id: blocker })).task.blocks).toEqual([dependent]);
    } finally {
      await native.close();
    }
  });
});

describe('tx profile: a parent with many children', () => {
  it('tx_children answers every child, past one page of 200', async () => {
    const own = tempWorkspace('cairn-tx-children-');
    const native = openCairn({ db: own.db });
    let parent = '';
    try {
      await native.call('create_project', { key: 'TX', name: 'tx' });
      parent = (await native.call('create_task', { project: 'TX', title: 'Many children' })).task.id;
      for (let i = 0; i < 205; i++) await native.call('create_task', { project: 'TX', title: `Child ${i}`, parentId: parent });
    } finally {
      await native.close();
    }
    const client = await connectV1({ env: { TX_DB: own.db }, args: ['--profile', 'tx'] });
    try {
      const kids = (await okTx(client, 'tx_children', { id: parent })).structuredContent!.children as Array<{ title: string }>;
      expect(kids).toHaveLength(205);
      expect(new Set(kids.map((k) => k.title)).size).toBe(205);
    } finally {
      await client.close();
      own.cleanup();
    }
  }, 60_000);
});
