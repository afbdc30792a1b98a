/**
 * Seed 004 (DevPlanner) on Cairn, in-process: every tool's output shape and behaviour, project and
 * card slugs, tasks by index, all-or-nothing batches, next-task order, search with matched fields,
 * progress by lane and priority, archive, the seed's error format, and the three resources.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyCandidates } from '../../src/profiles/devplanner/projects.js';
import { devplannerHarness, type Json } from './devplanner-harness.js';

let h: ReturnType<typeof devplannerHarness>;
beforeEach(() => {
  h = devplannerHarness();
});
afterEach(async () => {
  await h.done();
});

const P = { projectSlug: 'media-manager' };
const LANES = ['01-upcoming', '02-in-progress', '03-complete', '04-archive'];

async function mediaManager() {
  await h.ok('create_project', { name: 'Media Manager', description: 'File organization tool' });
  const auth = await h.ok('create_card', {
    ...P,
    title: 'User Authentication',
    lane: '02-in-progress',
    priority: 'high',
    assignee: 'agent',
    tags: ['auth', 'security'],
    status: 'in-progress',
    content: '## Overview\n\nImplement JWT-based authentication...',
  });
  for (const text of ['Set up JWT library', 'Create auth middleware', 'Add login endpoint', 'Add logout endpoint', 'Write tests']) await h.ok('add_task', { ...P, cardSlug: auth.slug, text });
  await h.ok('batch_update_tasks', {
    ...P,
    cardSlug: auth.slug,
    updates: [
      { taskIndex: 0, checked: true },
      { taskIndex: 1, checked: true },
    ],
  });
  const oauth = await h.ok('create_card', { ...P, title: 'OAuth2 Integration', priority: 'high', tags: ['auth'] });
  for (const text of ['Research OAuth2 providers', 'Select library', 'Create endpoints', 'Test', 'Document']) await h.ok('add_task', { ...P, cardSlug: oauth.slug, text });
  const docs = await h.ok('create_card', { ...P, title: 'Write docs', priority: 'low', assignee: 'user' });
  await h.ok('add_task', { ...P, cardSlug: docs.slug, text: 'README' });
  return { auth: auth.slug as string, oauth: oauth.slug as string, docs: docs.slug as string };
}

describe('projects', () => {
  it('create_project: slug from the name, four lanes, key derived from the name; list_projects and get_project by slug', async () => {
    const p = await h.ok('create_project', { name: 'Media Manager', description: 'File organization tool' });
    expect(p).toMatchObject({ slug: 'media-manager', name: 'Media Manager', description: 'File organization tool', archived: false });
    expect(Object.keys(p.lanes)).toEqual(LANES);
    expect(p.lanes['01-upcoming']).toEqual({ displayName: 'Upcoming', color: '#3b82f6', collapsed: false });
    expect(p.lanes['03-complete'].collapsed).toBe(true);
    expect((await h.cairn.call('get_project', { key: 'media-manager' })).project).toMatchObject({ key: 'MM', aliases: ['media-manager'] });
    const list = await h.ok('list_projects');
    expect(list).toMatchObject({ total: 1, projects: [{ slug: 'media-manager', cardCounts: { '01-upcoming': 0, '02-in-progress': 0, '03-complete': 0, '04-archive': 0 } }] });
    expect(list.projects[0].created).toBe(p.created);
    const got = await h.ok('get_project', P);
    expect(Object.keys(got)).toEqual(['slug', 'name', 'description', 'lanes', 'cardCounts', 'archived', 'created', 'updated']);
  });

  it('a second project whose initials collide gets another key; a duplicate name is refused', async () => {
    await h.ok('create_project', { name: 'Media Manager' });
    await h.ok('create_project', { name: 'Mobile Maps' });
    expect((await h.cairn.call('get_project', { key: 'mobile-maps' })).project.key).toBe('MOBILEMAPS');
    const dup = await h.fail('create_project', { name: 'media manager' });
    expect(dup).toMatchObject({ error: 'PROJECT_EXISTS' });
    expect(keyCandidates('Media Manager').slice(0, 3)).toEqual(['MM', 'MEDIAMANAG', 'MMA']);
    expect(keyCandidates('x')[0]).toBe('XP');
    expect(keyCandidates('42')[0]).toBe('DP');
  });

  it('an unknown project slug is PROJECT_NOT_FOUND in the seed format with suggestions', async () => {
    await h.ok('create_project', { name: 'Media Manager' });
    const e = await h.fail('list_cards', { projectSlug: 'media-manger' });
    expect(e.error).toBe('PROJECT_NOT_FOUND');
    expect(e.message).toContain("'media-manger'");
    expect(e.suggestions).toEqual(expect.arrayContaining(['Call list_projects() to see available projects']));
    expect(e.suggestions.join(' ')).toContain('media-manager');
    expect(Object.keys(e).sort()).toEqual(['error', 'expected', 'message', 'suggestions']);
  });

  it('a native project (no alias) is addressed by its key lower-cased', async () => {
    await h.cairn.call('create_project', { key: 'API', name: 'API', template: 'devplanner' });
    expect((await h.ok('list_projects')).projects[0].slug).toBe('api');
    expect((await h.ok('create_card', { projectSlug: 'api', title: 'Native' })).lane).toBe('01-upcoming');
  });
});

describe('cards', () => {
  it('create_card returns the seed card shape; slugs are unique (a second card with the same title gets -2)', async () => {
    await h.ok('create_project', { name: 'Media Manager' });
    const card = await h.ok('create_card', { ...P, title: 'New Feature', priority: 'medium' });
    expect(card).toMatchObject({ slug: 'new-feature', filename: 'new-feature.md', lane: '01-upcoming', frontmatter: { title: 'New Feature', priority: 'medium' }, content: '', tasks: [] });
    expect(Object.keys(card)).toEqual(['slug', 'filename', 'lane', 'frontmatter', 'content', 'tasks']);
    expect(card.frontmatter.created).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await h.ok('create_card', { ...P, title: 'New feature!' })).slug).toBe('new-feature-2');
    expect((await h.ok('create_card', { ...P, title: '¡Ünïcode Café!' })).slug).toBe('unicode-cafe');
  });

  it('two agents creating cards with one title at once get distinct slugs (the unique index decides)', async () => {
    await h.ok('create_project', { name: 'Media Manager' });
    const other = devplannerHarness({ db: h.cairn.ws!.db });
    try {
      const made = await Promise.all([0, 1, 2, 3].map((i) => (i % 2 ? other : h).ok('create_card', { ...P, title: 'Same Title' })));
      expect(made.map((c) => c.slug).sort()).toEqual(['same-title', 'same-title-2', 'same-title-3', 'same-title-4']);
    } finally {
      await other.done();
    }
  });

  it('list_cards filters by lane, priority (high includes urgent), assignee, tags (any) and status', async () => {
    const s = await mediaManager();
    const all = await h.ok('list_cards', P);
    expect(all.total).toBe(3);
    // Lane order, then position: a new card goes to the top of its lane, as the seed says.
    expect(all.cards.map((c: Json) => c.slug)).toEqual([s.docs, s.oauth, s.auth]);
    const first = all.cards.find((c: Json) => c.slug === s.auth);
    expect(first).toEqual({
      slug: s.auth,
      filename: `${s.auth}.md`,
      lane: '02-in-progress',
      frontmatter: { title: 'User Authentication', status: 'in-progress', priority: 'high', assignee: 'agent', created: expect.any(String), updated: expect.any(String), tags: ['auth', 'security'] },
      taskProgress: { total: 5, checked: 2 },
    });
    const slugs = async (args: Json) => (await h.ok('list_cards', { ...P, ...args })).cards.map((c: Json) => c.slug);
    expect(await slugs({ lane: '02-in-progress' })).toEqual([s.auth]);
    expect(await slugs({ priority: 'high' })).toEqual([s.oauth, s.auth]);
    expect(await slugs({ priority: 'low' })).toEqual([s.docs]);
    expect(await slugs({ assignee: 'user' })).toEqual([s.docs]);
    expect(await slugs({ tags: ['security', 'nope'] })).toEqual([s.auth]);
    expect(await slugs({ status: 'in-progress' })).toEqual([s.auth]);
    await h.cairn.call('update_task', { id: (await h.cairn.call('list_tasks', { project: 'MM', slug: s.docs })).tasks[0]!.id, priority: 'urgent' });
    expect(await slugs({ priority: 'high' })).toEqual([s.docs, s.oauth, s.auth]);
  });

  it('get_card: content and tasks; an unknown slug is CARD_NOT_FOUND naming similar cards', async () => {
    const s = await mediaManager();
    const card = await h.ok('get_card', { ...P, cardSlug: s.auth });
    expect(card.content).toContain('JWT-based');
    expect(card.tasks.slice(0, 3)).toEqual([
      { index: 0, text: 'Set up JWT library', checked: true },
      { index: 1, text: 'Create auth middleware', checked: true },
      { index: 2, text: 'Add login endpoint', checked: false },
    ]);
    const e = await h.fail('get_card', { ...P, cardSlug: 'user-auth' });
    expect(e).toMatchObject({ error: 'CARD_NOT_FOUND', expected: 'Valid card slug from list_cards() response' });
    expect(e.message).toContain("Card 'user-auth' not found in project 'media-manager'");
    expect(e.message).toContain(s.auth);
    expect(e.suggestions[0]).toBe("Call list_cards(projectSlug='media-manager') to see all available cards");
  });

  it('update_card changes only the frontmatter given; tags replace; content and tasks untouched', async () => {
    const s = await mediaManager();
    const before = await h.ok('get_card', { ...P, cardSlug: s.oauth });
    const after = await h.ok('update_card', { ...P, cardSlug: s.oauth, assignee: 'agent', status: 'review', tags: ['oauth'] });
    expect(after.frontmatter).toMatchObject({ title: 'OAuth2 Integration', priority: 'high', assignee: 'agent', status: 'review', tags: ['oauth'] });
    expect(after.tasks).toEqual(before.tasks);
    expect(after.content).toBe(before.content);
    expect(after.slug).toBe(s.oauth);
  });

  it('move_card moves between lanes; archive_card moves to 04-archive; a bad lane is INVALID_LANE', async () => {
    const s = await mediaManager();
    expect((await h.ok('move_card', { ...P, cardSlug: s.oauth, targetLane: '02-in-progress' })).lane).toBe('02-in-progress');
    expect((await h.ok('move_card', { ...P, cardSlug: s.oauth, targetLane: '03-complete' })).lane).toBe('03-complete');
    const archived = await h.ok('archive_card', { ...P, cardSlug: s.docs });
    expect(archived.lane).toBe('04-archive');
    expect((await h.ok('get_project', P)).cardCounts).toEqual({ '01-upcoming': 0, '02-in-progress': 1, '03-complete': 1, '04-archive': 1 });
    expect((await h.ok('list_cards', { ...P, lane: '04-archive' })).cards.map((c: Json) => c.slug)).toEqual([s.docs]);
    const e = await h.fail('move_card', { ...P, cardSlug: s.oauth, targetLane: '05-done' });
    expect(e.error).toBe('INVALID_LANE');
    expect(e.expected).toBe(`One of: ${LANES.join(', ')}`);
  });

  it('update_card_content replaces or appends and leaves frontmatter and tasks alone', async () => {
    const s = await mediaManager();
    const replaced = await h.ok('update_card_content', { ...P, cardSlug: s.oauth, content: '## Plan' });
    expect(replaced.content).toBe('## Plan');
    const appended = await h.ok('update_card_content', { ...P, cardSlug: s.oauth, content: '## Implementation Notes\n\nUsed Passport.js', append: true });
    expect(appended.content).toBe('## Plan\n\n## Implementation Notes\n\nUsed Passport.js');
    expect(appended.tasks).toHaveLength(5);
    expect(appended.frontmatter.priority).toBe('high');
  });

  it('a natively made task without a slug is a card addressed by its lower-cased id', async () => {
    await h.ok('create_project', { name: 'Media Manager' });
    const { task } = await h.cairn.call('create_task', { project: 'MM', title: 'Made natively' });
    const card = (await h.ok('list_cards', P)).cards[0];
    expect(card.slug).toBe(task.id.toLowerCase());
    expect((await h.ok('get_card', { ...P, cardSlug: card.slug })).frontmatter.title).toBe('Made natively');
  });
});

describe('card tasks', () => {
  it('add_task appends; toggle_task flips or sets; the answers carry the card progress', async () => {
    const s = await mediaManager();
    const added = await h.ok('add_task', { ...P, cardSlug: s.auth, text: 'Add error handling for token expiry' });
    expect(added).toEqual({ task: { index: 5, text: 'Add error handling for token expiry', checked: false }, card: { slug: s.auth, taskProgress: { total: 6, checked: 2 } } });
    expect((await h.ok('toggle_task', { ...P, cardSlug: s.auth, taskIndex: 2 })).task.checked).toBe(true);
    expect((await h.ok('toggle_task', { ...P, cardSlug: s.auth, taskIndex: 2 })).task.checked).toBe(false);
    const set = await h.ok('toggle_task', { ...P, cardSlug: s.auth, taskIndex: 2, checked: true });
    expect(set).toEqual({ task: { index: 2, text: 'Add login endpoint', checked: true }, card: { slug: s.auth, taskProgress: { total: 6, checked: 3 } } });
    expect((await h.ok('toggle_task', { ...P, cardSlug: s.auth, taskIndex: 2, checked: true })).task.checked).toBe(true);
  });

  it('an index past the end is TASK_INDEX_OUT_OF_RANGE naming the valid range', async () => {
    const s = await mediaManager();
    const e = await h.fail('toggle_task', { ...P, cardSlug: s.docs, taskIndex: 3 });
    expect(e).toMatchObject({ error: 'TASK_INDEX_OUT_OF_RANGE' });
    expect(e.message).toContain('valid indexes: 0–0');
    expect(e.suggestions[0]).toBe(`Call get_card(projectSlug='media-manager', cardSlug='${s.docs}') to see the current task list`);
    expect((await h.fail('toggle_task', { ...P, cardSlug: s.docs, taskIndex: -1 })).error).toBe('VALIDATION_ERROR');
  });

  it('batch_update_tasks is all or nothing: one bad index changes no task', async () => {
    const s = await mediaManager();
    const before = await h.ok('get_card', { ...P, cardSlug: s.oauth });
    const e = await h.fail('batch_update_tasks', {
      ...P,
      cardSlug: s.oauth,
      updates: [
        { taskIndex: 0, checked: true },
        { taskIndex: 9, checked: true },
      ],
    });
    expect(e.error).toBe('TASK_INDEX_OUT_OF_RANGE');
    expect(await h.ok('get_card', { ...P, cardSlug: s.oauth })).toEqual(before);
    const ok = await h.ok('batch_update_tasks', {
      ...P,
      cardSlug: s.oauth,
      updates: [
        { taskIndex: 0, checked: true },
        { taskIndex: 1, checked: true },
        { taskIndex: 2, checked: true },
      ],
    });
    expect(ok).toEqual({
      updated: [
        { index: 0, text: 'Research OAuth2 providers', checked: true },
        { index: 1, text: 'Select library', checked: true },
        { index: 2, text: 'Create endpoints', checked: true },
      ],
      card: { slug: s.oauth, taskProgress: { total: 5, checked: 3 } },
    });
    expect((await h.fail('batch_update_tasks', { ...P, cardSlug: s.oauth, updates: [] })).error).toBe('VALIDATION_ERROR');
    // One activity event for the batch: one transaction.
    const { task } = await h.cairn.call('get_task', { id: (await h.cairn.call('list_tasks', { project: 'MM', slug: s.oauth })).tasks[0]!.id });
    const history = await h.cairn.call('task_history', { id: task.id });
    expect(history.events.filter((ev) => ev.type === 'checklist.updated' && JSON.stringify(ev.changes).includes('Create endpoints')).length).toBeGreaterThan(0);
  });
});

describe('workflow tools', () => {
  it('get_board_overview: lanes with counts, task stats and priority breakdown; summary', async () => {
    await mediaManager();
    const b = await h.ok('get_board_overview', P);
    expect(b.project).toEqual({ slug: 'media-manager', name: 'Media Manager', description: 'File organization tool' });
    expect(Object.keys(b.lanes)).toEqual(LANES);
    expect(b.lanes['02-in-progress']).toEqual({
      displayName: 'In Progress',
      color: '#f59e0b',
      cardCount: 1,
      taskStats: { total: 5, completed: 2, completionRate: 0.4 },
      priorityBreakdown: { high: 1, medium: 0, low: 0 },
    });
    expect(b.lanes['01-upcoming']).toMatchObject({ cardCount: 2, taskStats: { total: 6, completed: 0, completionRate: 0 }, priorityBreakdown: { high: 1, medium: 0, low: 1 } });
    expect(b.lanes['04-archive']).toMatchObject({ cardCount: 0, taskStats: { total: 0, completed: 0, completionRate: 0 } });
    expect(b.summary).toEqual({ totalCards: 3, totalTasks: 11, completedTasks: 2, overallCompletionRate: 0.182 });
  });

  it('get_next_tasks: unchecked tasks by card priority, in-progress lane first; filters; limit; total', async () => {
    const s = await mediaManager();
    const all = await h.ok('get_next_tasks', P);
    expect(all.total).toBe(9);
    const order = all.tasks.map((t: Json) => `${t.card.slug}#${t.task.index}`);
    expect(order).toEqual([`${s.auth}#2`, `${s.auth}#3`, `${s.auth}#4`, ...[0, 1, 2, 3, 4].map((i) => `${s.oauth}#${i}`), `${s.docs}#0`]);
    expect(all.tasks[0]).toEqual({
      task: { index: 2, text: 'Add login endpoint', checked: false },
      card: { slug: s.auth, title: 'User Authentication', lane: '02-in-progress', priority: 'high', assignee: 'agent', status: 'in-progress' },
      project: { slug: 'media-manager', name: 'Media Manager' },
    });
    expect((await h.ok('get_next_tasks', { ...P, assignee: 'agent', lane: '02-in-progress' })).tasks).toHaveLength(3);
    expect((await h.ok('get_next_tasks', { ...P, assignee: 'user' })).tasks.map((t: Json) => t.card.slug)).toEqual([s.docs]);
    const two = await h.ok('get_next_tasks', { ...P, limit: 2 });
    expect(two.tasks).toHaveLength(2);
    expect(two.total).toBe(9);
    // The seed's words: "all uncompleted tasks across a project". A card in a finished lane still counts, after the open lanes.
    await h.ok('move_card', { ...P, cardSlug: s.docs, targetLane: '03-complete' });
    const after = await h.ok('get_next_tasks', P);
    expect(after.total).toBe(9);
    expect(after.tasks.at(-1)).toMatchObject({ card: { slug: s.docs, lane: '03-complete' } });
    expect((await h.ok('get_next_tasks', { ...P, lane: '03-complete' })).total).toBe(1);
    expect((await h.ok('get_next_tasks', { ...P, lane: '01-upcoming' })).tasks.every((t: Json) => t.card.lane === '01-upcoming')).toBe(true);
    expect((await h.fail('get_next_tasks', { ...P, limit: 101 })).error).toBe('VALIDATION_ERROR');
  });

  it('search_cards: ranked results with matchedFields and excerpt; fields limits where it looks', async () => {
    const s = await mediaManager();
    const r = await h.ok('search_cards', { ...P, query: 'authentication' });
    expect(r.query).toBe('authentication');
    expect(r.total).toBe(1);
    expect(r.results[0]).toMatchObject({ card: { slug: s.auth, lane: '02-in-progress', taskProgress: { total: 5, checked: 2 } }, matchedFields: ['title', 'content'] });
    expect(r.results[0].excerpt.toLowerCase()).toContain('authentication');
    expect(r.results[0].excerpt).not.toContain('**');
    const tags = await h.ok('search_cards', { ...P, query: 'security', fields: ['tags'] });
    expect(tags.results.map((x: Json) => [x.card.slug, x.matchedFields])).toEqual([[s.auth, ['tags']]]);
    expect((await h.ok('search_cards', { ...P, query: 'authentication', fields: ['tags'] })).results).toEqual([]);
    const byAssignee = await h.ok('search_cards', { ...P, query: 'user', fields: ['assignee'] });
    expect(byAssignee.results.map((x: Json) => [x.card.slug, x.matchedFields])).toEqual([[s.docs, ['assignee']]]);
    const byPriority = await h.ok('search_cards', { ...P, query: 'high', fields: ['priority'] });
    expect(byPriority.results.map((x: Json) => x.card.slug).sort()).toEqual([s.auth, s.oauth].sort());
    expect((await h.ok('search_cards', { ...P, query: 'OAuth', limit: 1 })).results[0].card.slug).toBe(s.oauth);
  });

  it('get_project_progress: by lane, by priority (urgent counts as high) and overall', async () => {
    const s = await mediaManager();
    await h.ok('batch_update_tasks', { ...P, cardSlug: s.docs, updates: [{ taskIndex: 0, checked: true }] });
    const pr = await h.ok('get_project_progress', P);
    expect(pr.project).toEqual({ slug: 'media-manager', name: 'Media Manager' });
    expect(Object.keys(pr.byLane)).toEqual(LANES);
    expect(pr.byLane['02-in-progress']).toEqual({ cardCount: 1, taskCount: 5, completedTasks: 2, completionRate: 0.4 });
    expect(pr.byPriority).toEqual({
      high: { cardCount: 2, taskCount: 10, completedTasks: 2, completionRate: 0.2 },
      medium: { cardCount: 0, taskCount: 0, completedTasks: 0, completionRate: 0 },
      low: { cardCount: 1, taskCount: 1, completedTasks: 1, completionRate: 1 },
    });
    expect(pr.overall).toEqual({ totalCards: 3, totalTasks: 11, completedTasks: 3, completionRate: 0.273 });
    // The seed's create_card: priority medium when none is given.
    const plain = await h.ok('create_card', { ...P, title: 'No priority given' });
    expect(plain.frontmatter.priority).toBe('medium');
    // A task without a priority (made natively) adds no key of its own: exactly the seed's high, medium and low.
    await h.cairn.call('create_task', { project: 'MM', title: 'Made natively, no priority' });
    expect(Object.keys((await h.ok('get_project_progress', P)).byPriority)).toEqual(['high', 'medium', 'low']);
    expect(Object.keys((await h.ok('get_board_overview', P)).lanes['01-upcoming'].priorityBreakdown)).toEqual(['high', 'medium', 'low']);
  });
});

describe('errors and resources', () => {
  it('schema violations are VALIDATION_ERROR in the seed format; unknown fields are refused', async () => {
    await h.ok('create_project', { name: 'Media Manager' });
    const missing = await h.fail('create_card', { ...P });
    expect(missing).toMatchObject({ error: 'VALIDATION_ERROR', expected: expect.any(String) });
    expect(missing.message).toContain('title');
    expect((await h.fail('create_card', { ...P, title: 'x', assignee: 'robot' })).error).toBe('VALIDATION_ERROR');
    expect((await h.fail('list_cards', { ...P, lane: 'doing' })).error).toBe('INVALID_LANE');
    // Cairn's field rules, named by the seed's fields.
    expect((await h.fail('create_card', { ...P, title: 'x', tags: ['a,b'] })).message).toContain('tags.0: labels must not contain commas');
    expect((await h.fail('create_card', { ...P, title: '  ' })).message).toContain('title: title must not be empty');
    expect((await h.fail('add_task', { ...P, cardSlug: 'x', text: '' })).message).toContain('text: checklist text must not be empty');
    const unknown = await h.fail('get_card', { ...P, cardSlug: 'x', card: 'y' });
    expect(unknown.error).toBe('VALIDATION_ERROR');
    expect(unknown.message).toContain('unknown field "card"');
  });

  it('a read-only server refuses writes in the seed format', async () => {
    const ro = devplannerHarness({ readOnly: true });
    try {
      expect((await ro.fail('create_project', { name: 'X' })).error).toBe('READ_ONLY');
      expect((await ro.ok('list_projects')).projects).toEqual([]);
    } finally {
      await ro.done();
    }
  });

  it('devplanner://projects, devplanner://projects/{slug} and devplanner://projects/{slug}/cards/{cardSlug}', async () => {
    const s = await mediaManager();
    const projects = await h.resource('devplanner://projects');
    expect(projects).toEqual({
      projects: [
        {
          slug: 'media-manager',
          name: 'Media Manager',
          description: 'File organization tool',
          cardCounts: { '01-upcoming': 2, '02-in-progress': 1, '03-complete': 0, '04-archive': 0 },
          archived: false,
        },
      ],
    });
    const board = await h.resource('devplanner://projects/media-manager');
    expect(board.project).toEqual({ slug: 'media-manager', name: 'Media Manager', description: 'File organization tool' });
    expect(Object.keys(board.lanes)).toEqual(LANES);
    expect(board.lanes['01-upcoming'].displayName).toBe('Upcoming');
    expect(board.lanes['01-upcoming'].cards.map((c: Json) => c.slug)).toEqual([s.docs, s.oauth]);
    const card = await h.resource(`devplanner://projects/media-manager/cards/${s.auth}`);
    expect(card).toEqual(await h.ok('get_card', { ...P, cardSlug: s.auth }));
  });
});
