/**
 * Seed 004 (DevPlanner) served in place: the devplanner profile over a real MCP client, with the
 * host configuration the seed gives (DEVPLANNER_WORKSPACE naming DevPlanner's own workspace). Every
 * write lands in the files DevPlanner's app reads (checked with gray-matter, its parser), and every
 * change made in the files shows on the next call and in the change feed.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { waitFor } from '../helpers/wait.js';
import { call, connectV1, ok } from '../mcp/helpers.js';
import { devplannerWorkspace, readCardFile, readJson, scratch, writeCardFile, type Scratch } from './link-helpers.js';

let s: Scratch;
let ws: string;
let c: Client;
const P = 'media-manager';
const card = (lane: string, slug: string) => join(ws, P, lane, `${slug}.md`);
const json = (r: { text: string }) => JSON.parse(r.text) as Record<string, any>;

beforeAll(async () => {
  s = scratch('cairn-dp-link-');
  ws = devplannerWorkspace(join(s.dir, 'workspace'));
  // A person gives the OAuth2 card its five tasks in DevPlanner's app before the agent starts.
  const oauth = card('01-upcoming', 'oauth2-integration');
  const { data, content } = readCardFile(oauth);
  writeCardFile(oauth, data, `${content.trimEnd()}\n\n## Tasks\n${['Research providers', 'Pick a library', 'Callback endpoint', 'Tests', 'Docs'].map((t) => `- [ ] ${t}`).join('\n')}\n`);
  c = await connectV1({ env: { DEVPLANNER_WORKSPACE: ws }, args: ['--profile', 'devplanner'] });
});
afterAll(async () => {
  await c?.close();
  s?.cleanup();
});

describe('devplanner link: the workspace is served in place', () => {
  it("lists the workspace's projects and cards from its files, with nothing imported first", async () => {
    const { projects } = json(await ok(c, 'list_projects'));
    expect(projects.map((p: any) => [p.slug, p.name, p.cardCounts])).toEqual([[P, 'Media Manager', { '01-upcoming': 2, '02-in-progress': 1, '03-complete': 0, '04-archive': 1 }]]);
    const auth = json(await ok(c, 'get_card', { projectSlug: P, cardSlug: 'user-authentication' }));
    expect(auth).toMatchObject({ lane: '02-in-progress', frontmatter: { title: 'User Authentication', status: 'in-progress', priority: 'high', assignee: 'agent', tags: ['auth', 'security'] } });
    expect(auth.tasks.map((t: any) => [t.text, t.checked])).toEqual(readCardFile(card('02-in-progress', 'user-authentication')).tasks.map((t) => [t.text, t.checked]));
    // Cairn's own data lives beside the workspace, in .cairn/ (DevPlanner's app lists only folders with _project.json).
    expect(existsSync(join(ws, '.cairn', 'cairn.db'))).toBe(true);
  });

  it('seed 004 workflow 1: claim, work through the tasks, complete and add notes, each step in the files', async () => {
    await ok(c, 'get_board_overview', { projectSlug: P });
    const high = json(await ok(c, 'list_cards', { projectSlug: P, lane: '01-upcoming', priority: 'high' }));
    expect(high.cards.map((x: any) => x.slug)).toEqual(['oauth2-integration']);
    await ok(c, 'update_card', { projectSlug: P, cardSlug: 'oauth2-integration', assignee: 'agent' });
    expect(readCardFile(card('01-upcoming', 'oauth2-integration')).data.assignee).toBe('agent');
    await ok(c, 'move_card', { projectSlug: P, cardSlug: 'oauth2-integration', targetLane: '02-in-progress' });
    expect(existsSync(card('01-upcoming', 'oauth2-integration'))).toBe(false);
    expect(readJson(join(ws, P, '02-in-progress', '_order.json'))).toContain('oauth2-integration.md');
    expect(readJson(join(ws, P, '01-upcoming', '_order.json'))).not.toContain('oauth2-integration.md');
    const got = json(await ok(c, 'get_card', { projectSlug: P, cardSlug: 'oauth2-integration' }));
    expect(got.tasks).toHaveLength(5);
    await ok(c, 'batch_update_tasks', {
      projectSlug: P,
      cardSlug: 'oauth2-integration',
      updates: [
        { taskIndex: 0, checked: true },
        { taskIndex: 1, checked: true },
        { taskIndex: 2, checked: true },
      ],
    });
    expect(readCardFile(card('02-in-progress', 'oauth2-integration')).tasks.map((t) => t.checked)).toEqual([true, true, true, false, false]);
    await ok(c, 'toggle_task', { projectSlug: P, cardSlug: 'oauth2-integration', taskIndex: 3, checked: true });
    await ok(c, 'toggle_task', { projectSlug: P, cardSlug: 'oauth2-integration', taskIndex: 4, checked: true });
    await ok(c, 'move_card', { projectSlug: P, cardSlug: 'oauth2-integration', targetLane: '03-complete' });
    await ok(c, 'update_card_content', { projectSlug: P, cardSlug: 'oauth2-integration', content: '## Implementation Notes\n\nUsed Passport.js with Google OAuth2 strategy.', append: true });
    const done = readCardFile(card('03-complete', 'oauth2-integration'));
    expect(done.tasks.every((t) => t.checked)).toBe(true);
    expect(done.tasks).toHaveLength(5);
    expect(done.content).toContain('Support Google and GitHub sign-in.');
    expect(done.content).toContain('## Implementation Notes\n\nUsed Passport.js with Google OAuth2 strategy.');
    expect(done.data).toMatchObject({ title: 'OAuth2 Integration', priority: 'high', assignee: 'agent', tags: ['auth'] });
    // DevPlanner's optimistic-locking version moved with every write; created is kept as the app wrote it.
    expect(done.data.version).toBeGreaterThan(5);
    expect(done.data.created).toBe('2024-02-02T10:00:00Z');
    expect(readJson(join(ws, P, '03-complete', '_order.json'))).toEqual(['oauth2-integration.md']);
  });

  it('seed 004 workflows 2 and 3: search, add tasks, create a card DevPlanner numbers and lists', async () => {
    const found = json(await ok(c, 'search_cards', { projectSlug: P, query: 'authentication' }));
    expect(found.results.map((r: any) => r.card.slug)).toContain('user-authentication');
    await ok(c, 'add_task', { projectSlug: P, cardSlug: 'user-authentication', text: 'Implement rate limiting for login endpoint' });
    expect(readCardFile(card('02-in-progress', 'user-authentication')).tasks.at(-1)).toEqual({ text: 'Implement rate limiting for login endpoint', checked: false });
    const created = json(
      await ok(c, 'create_card', { projectSlug: P, title: 'API Rate Limiting', priority: 'high', assignee: 'agent', content: '## Overview\n\nPrevent abuse by limiting request rates...' }),
    );
    expect(created.slug).toBe('api-rate-limiting');
    for (const text of ['Choose rate limiting library', 'Configure Redis for storage', 'Add middleware to all routes'])
      await ok(c, 'add_task', { projectSlug: P, cardSlug: 'api-rate-limiting', text });
    const file = readCardFile(card('01-upcoming', 'api-rate-limiting'));
    expect(file.data).toMatchObject({ title: 'API Rate Limiting', priority: 'high', assignee: 'agent', cardNumber: 5 });
    expect(file.tasks.map((t) => t.text)).toEqual(['Choose rate limiting library', 'Configure Redis for storage', 'Add middleware to all routes']);
    expect(file.content).toContain('## Overview\n\nPrevent abuse by limiting request rates...');
    expect(readJson(join(ws, P, '01-upcoming', '_order.json'))).toContain('api-rate-limiting.md');
    // The project's counter moved past the card's number, as DevPlanner's createCard moves it.
    expect(readJson(join(ws, P, '_project.json')).nextCardNumber).toBe(6);
  });

  it("create_project makes the project's folder, as DevPlanner's app lays it out, and its cards go there", async () => {
    json(await ok(c, 'create_project', { name: 'API Docs', description: 'Reference pages' }));
    const cfg = readJson(join(ws, 'api-docs', '_project.json'));
    expect(cfg).toMatchObject({ name: 'API Docs', description: 'Reference pages', archived: false, nextCardNumber: 1 });
    expect(Object.keys(cfg.lanes)).toEqual(['01-upcoming', '02-in-progress', '03-complete', '04-archive']);
    expect(readJson(join(ws, 'api-docs', '01-upcoming', '_order.json'))).toEqual([]);
    await ok(c, 'create_card', { projectSlug: 'api-docs', title: 'Document the auth endpoints' });
    expect(readCardFile(join(ws, 'api-docs', '01-upcoming', 'document-the-auth-endpoints.md')).data).toMatchObject({ title: 'Document the auth endpoints', cardNumber: 1 });
    expect(readJson(join(ws, 'api-docs', '_project.json')).nextCardNumber).toBe(2);
    expect(json(await ok(c, 'list_projects')).projects.map((p: any) => p.slug)).toEqual(['api-docs', P]);
  });
});

describe('devplanner link: changes made in the files', () => {
  it('a hand edit, a new card, a reorder and a deletion each show on the next call', async () => {
    const thumb = card('01-upcoming', 'thumbnail-cache');
    const before = readCardFile(thumb);
    writeCardFile(thumb, { ...before.data, title: 'Thumbnail cache v2' }, `${before.content.replace('- [ ] Pick a cache folder', '- [x] Pick a cache folder')}- [ ] Evict after 30 days\n`);
    const edited = json(await ok(c, 'get_card', { projectSlug: P, cardSlug: 'thumbnail-cache' }));
    expect(edited.frontmatter.title).toBe('Thumbnail cache v2');
    expect(edited.tasks.map((t: any) => [t.text, t.checked])).toEqual([
      ['Pick a cache folder', true],
      ['Evict after 30 days', false],
    ]);

    writeCardFile(card('01-upcoming', 'made-by-hand'), { title: 'Made by hand', priority: 'low', created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z' }, 'Written in an editor.\n');
    const lane = () => ok(c, 'list_cards', { projectSlug: P, lane: '01-upcoming' }).then((r) => json(r).cards.map((x: any) => x.slug));
    expect(await lane()).toContain('made-by-hand');

    const order = ['made-by-hand.md', ...readJson(join(ws, P, '01-upcoming', '_order.json')).filter((f: string) => f !== 'made-by-hand.md')];
    writeFileSync(join(ws, P, '01-upcoming', '_order.json'), JSON.stringify(order, null, 2));
    expect((await lane())[0]).toBe('made-by-hand');

    unlinkSync(card('04-archive', 'old-feature'));
    const r = await call(c, 'get_card', { projectSlug: P, cardSlug: 'old-feature' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('CARD_NOT_FOUND');
  });

  it("enters the change feed by the source's name, and a native client's history shows who changed what", async () => {
    const lib = openCairn({ db: join(ws, '.cairn', 'cairn.db') });
    try {
      const { events } = await lib.call('changes_since', { since: 0, limit: 1000 });
      const fromFiles = events.filter((e) => e.actor === 'devplanner');
      expect(fromFiles.map((e) => e.type)).toEqual(expect.arrayContaining(['task.imported', 'task.updated', 'task.deleted']));
      const thumb = (await lib.call('list_tasks', { project: 'MM', slug: 'thumbnail-cache' } as never)).tasks[0]!;
      const { events: history } = await lib.call('task_history', { id: thumb.id });
      expect(history.find((e) => e.actor === 'devplanner' && e.type === 'task.updated')?.changes.title).toEqual({ before: 'Thumbnail cache', after: 'Thumbnail cache v2' });
    } finally {
      await lib.close();
    }
  });

  it("a hand edit reaches a native client's resource subscription, as any write does", async () => {
    const native = await connectV1({ db: join(ws, '.cairn', 'cairn.db') });
    try {
      const updated: string[] = [];
      native.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      const uri = 'cairn://tasks/MM-3';
      await native.subscribeResource({ uri });
      const auth = card('02-in-progress', 'user-authentication');
      const before = readCardFile(auth);
      writeCardFile(auth, { ...before.data, priority: 'low' }, before.content);
      await waitFor(() => updated.includes(uri), 'notifications/resources/updated after a hand edit');
      expect((await ok(native, 'get_task', { id: 'MM-3' })).data).toMatchObject({ task: { priority: 'low' } });
    } finally {
      await native.close();
    }
  });

  it('a card the files cannot parse is reported and keeps its last state; the others read on', async () => {
    const auth = card('02-in-progress', 'user-authentication');
    const good = readFileSync(auth, 'utf8');
    writeFileSync(auth, '---\ntitle: [unclosed\n---\nbody\n');
    const lib = openCairn({ db: join(ws, '.cairn', 'cairn.db') });
    try {
      const got = json(await ok(c, 'get_card', { projectSlug: P, cardSlug: 'user-authentication' }));
      expect(got.frontmatter.title).toBe('User Authentication');
      expect(json(await ok(c, 'list_cards', { projectSlug: P })).cards.length).toBeGreaterThan(3);
      const behind = (await lib.call('list_links', {})).links[0]!;
      expect(behind.state).toBe('behind');
      expect(behind.warnings.join('\n')).toContain('02-in-progress/user-authentication.md: ');
    } finally {
      writeFileSync(auth, good);
    }
    expect(json(await ok(c, 'get_card', { projectSlug: P, cardSlug: 'user-authentication' })).frontmatter.title).toBe('User Authentication');
    try {
      expect((await lib.call('list_links', {})).links[0]).toMatchObject({ state: 'in sync', warnings: [] });
    } finally {
      await lib.close();
    }
  });

  it("the seed's resources read the files as they are now", async () => {
    const uri = `devplanner://projects/${P}/cards/thumbnail-cache`;
    const text = async (u: string) => JSON.parse(((await c.readResource({ uri: u })).contents[0] as { text: string }).text);
    const read = () => text(uri);
    const thumb = card('01-upcoming', 'thumbnail-cache');
    const before = readCardFile(thumb);
    writeCardFile(thumb, { ...before.data, assignee: 'user' }, before.content);
    expect((await read()).frontmatter.assignee).toBe('user');
    const board = await text(`devplanner://projects/${P}`);
    expect(JSON.stringify(board)).toContain('thumbnail-cache');
  });

  it('leaves no temporary files behind, and every card in the workspace parses with gray-matter', () => {
    for (const lane of readdirSync(join(ws, P)).filter((d) => !d.includes('.'))) {
      for (const f of readdirSync(join(ws, P, lane))) {
        expect(f.startsWith('.')).toBe(false);
        if (f.endsWith('.md')) expect(readCardFile(join(ws, P, lane, f)).data.title).toEqual(expect.any(String));
      }
    }
  });
});
