/**
 * Seed 004 (DevPlanner) on Cairn end to end: `cairn mcp --profile devplanner` over stdio with
 * DEVPLANNER_WORKSPACE naming the workspace folder, a real MCP client, the seed's Success Criteria
 * (ping, 17 tools, 3 resources, error format, the claim → complete workflow) and its three example
 * agent workflows; changes are visible to a human reading the same workspace; tools/list snapshot.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { connectV1, connectV2 } from '../mcp/helpers.js';

type Json = Record<string, any>;
type Result = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: Json };

let ws: TempWorkspace;
let c: Client;

async function call(name: string, args: Json = {}): Promise<{ isError: boolean; data: Json }> {
  const r = (await c.callTool({ name, arguments: args })) as Result;
  expect(r.content).toHaveLength(1);
  const data = JSON.parse(r.content[0]!.text) as Json;
  if (!r.isError) expect(r.structuredContent).toEqual(data);
  return { isError: r.isError === true, data };
}
async function ok(name: string, args: Json = {}): Promise<Json> {
  const r = await call(name, args);
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.data)}`);
  return r.data;
}

const P = { projectSlug: 'media-manager' };

beforeAll(async () => {
  ws = tempWorkspace('cairn-devplanner-');
  // The seed's hosts set DEVPLANNER_WORKSPACE to the workspace folder; Cairn keeps its database in <folder>/.cairn/.
  c = await connectV1({ env: { DEVPLANNER_WORKSPACE: ws.dir }, args: ['--profile', 'devplanner'] });
  await ok('create_project', { name: 'Media Manager', description: 'File organization tool' });
  const inProgress = [
    ['User Authentication', 'high', ['Set up JWT library', 'Create auth middleware', 'Add login endpoint', 'Add logout endpoint', 'Write tests']],
    ['File Scanner', 'medium', ['Walk folders', 'Hash files']],
  ] as const;
  for (const [title, priority, tasks] of inProgress) {
    const card = await ok('create_card', {
      ...P,
      title,
      priority,
      lane: '02-in-progress',
      assignee: 'agent',
      status: 'in-progress',
      content: `## Overview\n\nImplement ${title.toLowerCase()} with JWT-based authentication.`.replace(
        ' with JWT-based authentication',
        title === 'User Authentication' ? ' with JWT-based authentication' : '',
      ),
    });
    for (const text of tasks) await ok('add_task', { ...P, cardSlug: card.slug, text });
  }
  await ok('batch_update_tasks', {
    ...P,
    cardSlug: 'user-authentication',
    updates: [
      { taskIndex: 0, checked: true },
      { taskIndex: 1, checked: true },
    ],
  });
  const upcoming = [
    ['OAuth2 Integration', 'high'],
    ['Thumbnail Cache', 'high'],
    ['Tag Editor', 'medium'],
    ['Duplicate Finder', 'medium'],
    ['Dark Mode', 'low'],
  ] as const;
  for (const [title, priority] of upcoming) await ok('create_card', { ...P, title, priority, tags: title === 'OAuth2 Integration' ? ['auth'] : [] });
  for (const text of ['Research OAuth2 providers', 'Select library', 'Create endpoints', 'Test the flow', 'Write docs']) await ok('add_task', { ...P, cardSlug: 'oauth2-integration', text });
});
afterAll(async () => {
  await c?.close();
  ws?.cleanup();
});

describe('DevPlanner success criteria', () => {
  it('1, 6: the stdio server answers ping and names itself devplanner; 2: all 17 tools are listed (snapshot)', async () => {
    await c.ping();
    expect(c.getServerVersion()?.name).toBe('devplanner');
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'list_projects',
      'get_project',
      'create_project',
      'list_cards',
      'get_card',
      'create_card',
      'update_card',
      'move_card',
      'add_task',
      'toggle_task',
      'get_board_overview',
      'get_next_tasks',
      'batch_update_tasks',
      'search_cards',
      'update_card_content',
      'get_project_progress',
      'archive_card',
    ]);
    for (const t of tools) expect(t.description!.length).toBeGreaterThan(40);
    expect(tools.find((t) => t.name === 'move_card')!.inputSchema).toMatchObject({ required: ['projectSlug', 'cardSlug', 'targetLane'] });
    const surface = tools.map((t) => ({ name: t.name, title: t.title, description: t.description, annotations: t.annotations, inputSchema: t.inputSchema }));
    await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/devplanner-tools.json');
  });

  it('3: the three resources are registered and readable', async () => {
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['devplanner://projects', 'devplanner://projects/media-manager']));
    const { resourceTemplates } = await c.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(expect.arrayContaining(['devplanner://projects/{slug}', 'devplanner://projects/{slug}/cards/{cardSlug}']));
    const read = async (uri: string) => {
      const r = await c.readResource({ uri });
      expect(r.contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
      return JSON.parse((r.contents[0] as { text: string }).text) as Json;
    };
    expect((await read('devplanner://projects')).projects[0]).toMatchObject({ slug: 'media-manager', cardCounts: { '01-upcoming': 5, '02-in-progress': 2 } });
    const board = await read('devplanner://projects/media-manager');
    // The seed puts a new card at the top of its lane, so the later card leads.
    expect(board.lanes['02-in-progress'].cards.map((x: Json) => x.slug)).toEqual(['file-scanner', 'user-authentication']);
    const card = await read('devplanner://projects/media-manager/cards/user-authentication');
    expect(card).toEqual(await ok('get_card', { ...P, cardSlug: 'user-authentication' }));
    await expect(c.readResource({ uri: 'devplanner://projects/media-manager/cards/nope' })).rejects.toThrow(/not found/);
  });

  it('5: errors follow the seed format {error, message, expected, suggestions}', async () => {
    const cases: Array<[string, Json, string]> = [
      ['get_project', { projectSlug: 'nope' }, 'PROJECT_NOT_FOUND'],
      ['get_card', { ...P, cardSlug: 'user-auth' }, 'CARD_NOT_FOUND'],
      ['toggle_task', { ...P, cardSlug: 'user-authentication', taskIndex: 50 }, 'TASK_INDEX_OUT_OF_RANGE'],
      ['move_card', { ...P, cardSlug: 'user-authentication', targetLane: 'done' }, 'INVALID_LANE'],
      ['create_card', { ...P }, 'VALIDATION_ERROR'],
    ];
    for (const [tool, args, code] of cases) {
      const r = await call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.data).toMatchObject({ error: code, message: expect.any(String), expected: expect.any(String), suggestions: expect.any(Array) });
      expect(r.data.suggestions.length, tool).toBeGreaterThan(0);
      expect(r.data.message.length).toBeGreaterThan(20);
    }
  });
});

describe('DevPlanner example agent workflows', () => {
  it('workflow 1: an agent claims and completes a card (7: claim → complete tasks → move to complete)', async () => {
    const overview = await ok('get_board_overview', P);
    expect(overview.lanes['02-in-progress'].cardCount).toBe(2);
    expect(overview.lanes['01-upcoming']).toMatchObject({ cardCount: 5, priorityBreakdown: { high: 2, medium: 2, low: 1 } });

    const high = await ok('list_cards', { ...P, lane: '01-upcoming', priority: 'high' });
    const oauth = high.cards.find((x: Json) => x.frontmatter.title === 'OAuth2 Integration');
    expect(oauth.taskProgress).toEqual({ total: 5, checked: 0 });

    await ok('update_card', { ...P, cardSlug: 'oauth2-integration', assignee: 'agent' });
    const moved = await ok('move_card', { ...P, cardSlug: 'oauth2-integration', targetLane: '02-in-progress' });
    expect(moved).toMatchObject({ lane: '02-in-progress', frontmatter: { assignee: 'agent' } });

    const card = await ok('get_card', { ...P, cardSlug: 'oauth2-integration' });
    expect(card.tasks.map((t: Json) => t.text)).toEqual(['Research OAuth2 providers', 'Select library', 'Create endpoints', 'Test the flow', 'Write docs']);

    const batch = await ok('batch_update_tasks', { ...P, cardSlug: 'oauth2-integration', updates: [0, 1, 2].map((i) => ({ taskIndex: i, checked: true })) });
    expect(batch.card.taskProgress).toEqual({ total: 5, checked: 3 });
    await ok('toggle_task', { ...P, cardSlug: 'oauth2-integration', taskIndex: 3, checked: true });
    const last = await ok('toggle_task', { ...P, cardSlug: 'oauth2-integration', taskIndex: 4, checked: true });
    expect(last.card.taskProgress).toEqual({ total: 5, checked: 5 });
    expect((await ok('move_card', { ...P, cardSlug: 'oauth2-integration', targetLane: '03-complete' })).lane).toBe('03-complete');

    const notes = await ok('update_card_content', { ...P, cardSlug: 'oauth2-integration', content: '## Implementation Notes\n\nUsed Passport.js with Google OAuth2 strategy...', append: true });
    expect(notes.content).toContain('Passport.js');
    expect(notes.tasks.every((t: Json) => t.checked)).toBe(true);

    // A human (the CLI, the board) reading the same workspace sees the agent's work and its history.
    const human = openCairn({ db: `${ws.dir}/.cairn/cairn.db`, actor: 'human' });
    try {
      const { tasks } = await human.call('list_tasks', { project: 'media-manager', slug: 'oauth2-integration', includeDone: true });
      expect(tasks[0]).toMatchObject({ status: '03-complete', statusCategory: 'done', assignee: 'agent', checklistProgress: { done: 5, total: 5 } });
      const history = await human.call('task_history', { id: tasks[0]!.id });
      expect(history.events.map((e) => e.type)).toEqual(expect.arrayContaining(['task.created', 'task.updated', 'task.moved', 'checklist.updated']));
    } finally {
      await human.close();
    }
    const progress = await ok('get_project_progress', P);
    expect(progress.byLane['03-complete']).toEqual({ cardCount: 1, taskCount: 5, completedTasks: 5, completionRate: 1 });
  });

  it('workflow 2: an agent discovers related work and picks up where another left off', async () => {
    const found = await ok('search_cards', { ...P, query: 'authentication' });
    expect(found.results.map((r: Json) => r.card.slug)).toContain('user-authentication');
    const hit = found.results.find((r: Json) => r.card.slug === 'user-authentication');
    expect(hit.matchedFields).toEqual(expect.arrayContaining(['title']));
    expect(hit.excerpt.toLowerCase()).toContain('authentication');

    const card = await ok('get_card', { ...P, cardSlug: 'user-authentication' });
    expect(card.frontmatter).toMatchObject({ assignee: 'agent', status: 'in-progress' });
    expect(card.tasks.filter((t: Json) => t.checked)).toHaveLength(2);

    const next = await ok('get_next_tasks', { ...P, assignee: 'agent', lane: '02-in-progress' });
    // High priority first: user-authentication's three open tasks, then the medium file scanner's two.
    expect(next.tasks.map((t: Json) => `${t.card.slug}#${t.task.index}`)).toEqual(['user-authentication#2', 'user-authentication#3', 'user-authentication#4', 'file-scanner#0', 'file-scanner#1']);
    expect(next.total).toBe(5);
    expect(next.tasks[0].project).toEqual({ slug: 'media-manager', name: 'Media Manager' });
  });

  it('workflow 3: an agent creates new work items', async () => {
    const added = await ok('add_task', { ...P, cardSlug: 'user-authentication', text: 'Implement rate limiting for login endpoint' });
    expect(added).toEqual({ task: { index: 5, text: 'Implement rate limiting for login endpoint', checked: false }, card: { slug: 'user-authentication', taskProgress: { total: 6, checked: 2 } } });

    const created = await ok('create_card', { ...P, title: 'API Rate Limiting', priority: 'high', assignee: 'agent', content: '## Overview\n\nPrevent abuse by limiting request rates...' });
    expect(created).toMatchObject({
      slug: 'api-rate-limiting',
      filename: 'api-rate-limiting.md',
      lane: '01-upcoming',
      frontmatter: { title: 'API Rate Limiting', priority: 'high', assignee: 'agent' },
      tasks: [],
    });

    for (const text of ['Choose rate limiting library', 'Configure Redis for storage', 'Add middleware to all routes']) await ok('add_task', { ...P, cardSlug: 'api-rate-limiting', text });
    const card = await ok('get_card', { ...P, cardSlug: 'api-rate-limiting' });
    expect(card.tasks).toEqual([
      { index: 0, text: 'Choose rate limiting library', checked: false },
      { index: 1, text: 'Configure Redis for storage', checked: false },
      { index: 2, text: 'Add middleware to all routes', checked: false },
    ]);
    expect((await ok('archive_card', { ...P, cardSlug: 'api-rate-limiting' })).lane).toBe('04-archive');
  });

  it('the 2026-07-28 client works the same tools', async () => {
    const v2 = await connectV2({ env: { DEVPLANNER_WORKSPACE: ws.dir }, args: ['--profile', 'devplanner'] });
    try {
      const r = (await v2.callTool({ name: 'list_projects', arguments: {} })) as Result;
      expect(JSON.parse(r.content[0]!.text)).toMatchObject({ total: 1, projects: [{ slug: 'media-manager' }] });
    } finally {
      await v2.close();
    }
  });
});
