/** The board in Chromium against a real `cairn serve`: loading, quick add, drag and keyboard moves, checklist, dependencies, live changes from the CLI, conflicts, reconnects. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, openBrowser, startServer, unfold, until, type Browser, type Server } from './board-harness.js';

describeBrowser('web board', () => {
  let server: Server;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    expect((await server.call('POST', '/api/v1/projects', { key: 'WEB', name: 'Web board' })).status).toBe(201);
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const task = async (id: string) => (await server.call('GET', `/api/v1/tasks/${id}`)).body.task;
  const card = (id: string) => browser.page.locator(`[data-card="${id}"]`);
  const lane = (name: string) => browser.page.locator(`[data-lane="${name}"]`);

  it('serves the page at / with its assets, content types and caching', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await res.text();
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(html)![1]!;
    const jsRes = await fetch(server.url + js, { headers: { 'accept-encoding': 'gzip' } });
    expect(jsRes.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(jsRes.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(server.url + css)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${server.url}/`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // The Host guard still covers the page; unknown paths stay JSON 404s.
    expect((await fetch(`${server.url}/assets/nope.js`)).status).toBe(404);
  });

  it('loads the board: lanes in workflow order with counts', async () => {
    await server.call('POST', '/api/v1/tasks', { project: 'WEB', title: 'Seeded card', priority: 'high', labels: ['ui'], checklist: ['one', 'two'] });
    await browser.page.goto(server.url);
    await card('WEB-1').waitFor();
    const headings = await browser.page.locator('.lane h2').allInnerTexts();
    expect(headings.map((h) => h.replace(/\s*\d+$/, '').trim())).toEqual(['Backlog', 'To do', 'In progress', 'Blocked', 'Review', 'Done', 'Canceled']);
    expect(await lane('todo').locator('.count').innerText()).toBe('1');
    const text = await card('WEB-1').innerText();
    for (const s of ['WEB-1', 'Seeded card', 'high', 'ui', '0/2', 'ready']) expect(text).toContain(s);
  });

  it('creates a card with quick add', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Add a card to To do' }).click();
    const input = page.getByLabel('New card title in To do');
    await input.fill('Made in the browser');
    await input.press('Enter');
    await card('WEB-2').waitFor();
    const t = await task('WEB-2');
    expect(t).toMatchObject({ title: 'Made in the browser', status: 'todo' });
  });

  it('drags a card to another lane and within a lane, keeping the order', async () => {
    await card('WEB-2').dragTo(lane('in_progress').locator('.lane-body'), { targetPosition: { x: 40, y: 10 } });
    await until('WEB-2 in progress', async () => (await task('WEB-2')).status === 'in_progress');
    await lane('in_progress').locator('[data-card="WEB-2"]').waitFor();
    // Within a lane: WEB-3 above WEB-1, then dragged below it.
    await server.call('POST', '/api/v1/tasks', { project: 'WEB', title: 'Third' });
    await card('WEB-3').waitFor();
    const order = async () => (await server.call('GET', '/api/v1/tasks?project=WEB&status=todo&sort=position')).body.tasks.map((t: { id: string }) => t.id);
    expect(await order()).toEqual(['WEB-1', 'WEB-3']);
    await card('WEB-3').dragTo(lane('todo').locator('.lane-body'), { targetPosition: { x: 40, y: 5 } });
    await until('WEB-3 on top', async () => (await order())[0] === 'WEB-3');
    expect(
      await lane('todo')
        .locator('.card')
        .evaluateAll((els) => els.map((e) => (e as any).dataset.card)),
    ).toEqual(['WEB-3', 'WEB-1']);
  });

  it('moves a card with the keyboard (arrows go from card to card, Alt + arrows move it)', async () => {
    const { page } = browser;
    const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.closest('[data-card]')?.getAttribute('data-card') as string | undefined);
    // A key goes where the focus is when it is pressed: on a busy machine the live feed may still be
    // redrawing the lane after the previous test's moves, so each press waits for the focus first.
    const pressOn = async (id: string, key: string) => {
      await until(`focus on ${id}`, async () => (await focused()) === id || (await card(id).locator('.card-title').focus(), false));
      await page.keyboard.press(key);
    };
    await pressOn('WEB-3', 'ArrowDown');
    await until('focus on WEB-1', async () => (await focused()) === 'WEB-1');
    await pressOn('WEB-1', 'ArrowUp');
    await until('focus back on WEB-3', async () => (await focused()) === 'WEB-3');
    await pressOn('WEB-3', 'Alt+ArrowDown');
    await until('WEB-3 below WEB-1', async () => (await server.call('GET', '/api/v1/tasks?project=WEB&status=todo&sort=position')).body.tasks[1]?.id === 'WEB-3');
    await until('focus still on WEB-3', async () => (await focused()) === 'WEB-3');
    await pressOn('WEB-3', 'Alt+ArrowRight');
    await until('WEB-3 in progress', async () => (await task('WEB-3')).status === 'in_progress');
    // Focus follows the card, and the move is announced.
    expect(await focused()).toBe('WEB-3');
    await page.locator('[aria-live="polite"]', { hasText: 'Moved WEB-3 to In progress' }).waitFor({ state: 'attached' });
  });

  it('shows a change made with the cairn CLI in another process, live', async () => {
    // When the card appears, by the page's clock (same machine as the server's), to report the delay.
    await browser.page.evaluate(() => {
      const g = globalThis as any;
      const mo = new g.MutationObserver(() => {
        if (g.document.querySelector('[data-card="WEB-4"]')) {
          g.__shownAt = Date.now();
          mo.disconnect();
        }
      });
      mo.observe(g.document.body, { childList: true, subtree: true });
    });
    server.ok(['add', 'Added from the CLI', '--project', 'WEB', '--labels', 'cli'], 'agent:cli-bot');
    const added = card('WEB-4');
    await added.waitFor();
    const shownAt = await browser.page.evaluate(() => (globalThis as any).__shownAt as number);
    const committedAt = Date.parse((await task('WEB-4')).createdAt);
    process.stdout.write(`\n[board figures] CLI write in another process → card on screen: ${shownAt - committedAt} ms\n`);
    expect(await added.innerText()).toContain('Added from the CLI');
    // Highlighted with the actor's name for a few seconds.
    expect(await added.locator('.touched-by').innerText()).toBe('agent:cli-bot');
    server.ok(['move', 'WEB-4', 'review'], 'agent:cli-bot');
    await lane('review').locator('[data-card="WEB-4"]').waitFor();
  });

  it('shows what an agent does over MCP (cairn mcp over stdio, another process), live', async () => {
    // Imported here: the MCP helpers check the build when loaded, and a machine without Chromium skips this file.
    const { call, connectV1 } = await import('../mcp/helpers.js');
    const agent = await connectV1({ db: server.db, args: ['--as', 'agent:mcp-bot'] });
    try {
      expect((await call(agent, 'claim_task', { id: 'WEB-4' })).isError).toBe(false);
      expect((await call(agent, 'update_task', { id: 'WEB-4', title: 'Renamed by the agent' })).isError).toBe(false);
    } finally {
      await agent.close();
    }
    await card('WEB-4').getByText('Renamed by the agent').waitFor();
    await card('WEB-4').getByText('claimed by agent:mcp-bot').waitFor();
    expect(await card('WEB-4').locator('.touched-by').innerText()).toBe('agent:mcp-bot');
  });

  it('toggles a checklist item in the card panel', async () => {
    const { page } = browser;
    await card('WEB-1').locator('.card-title').click();
    const panel = page.getByRole('dialog', { name: /WEB-1/ });
    // A click, then the saved state: the box shows the server's answer, so it may not have turned
    // at the instant after the click that check() looks at, on a busy machine.
    await panel.getByRole('checkbox', { name: 'one' }).click();
    await until('item 0 checked', async () => (await task('WEB-1')).checklist[0].checked === true);
    await until('the box checked', () => panel.getByRole('checkbox', { name: 'one' }).isChecked());
    await card('WEB-1').getByText('☑ 1/2').waitFor();
    // Add, edit and remove go through the same checklist call.
    await panel.getByLabel('New checklist item').fill('three');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await until('three added', async () => (await task('WEB-1')).checklist.length === 3);
    await panel.getByRole('button', { name: 'Remove “two”' }).click();
    await until('two removed', async () => (await task('WEB-1')).checklist.map((i: { text: string }) => i.text).join() === 'one,three');
  });

  it('adds a dependency by searching, and the card shows the blocked badge', async () => {
    const { page } = browser;
    await server.call('POST', '/api/v1/tasks', { project: 'WEB', title: 'Migrate the payments database' });
    await card('WEB-5').waitFor();
    const panel = page.getByRole('dialog', { name: /WEB-1/ });
    await panel.getByLabel('Add a blocker (search or type an id)').fill('payments');
    await panel.getByRole('button', { name: /WEB-5 Migrate the payments database/ }).click();
    await until('WEB-1 blocked by WEB-5', async () => (await task('WEB-1')).blockedBy.includes('WEB-5'));
    await card('WEB-1').locator('.waits', { hasText: 'Waits on WEB-5' }).waitFor();
    expect(await card('WEB-1').locator('.ready').count()).toBe(0);
    await panel.getByRole('button', { name: 'Remove blocker WEB-5' }).waitFor();
  });

  // Retried: now and then (on a busy machine, and with the code from before 2026-11-25 too) the
  // title's draft is saved before the agent's change lands, and then there is nothing to conflict.
  it('shows a conflict and the fresh card when someone else changed it meanwhile', async () => {
    const { page } = browser;
    const agentTitle = 'Agent title';
    const panel = page.getByRole('dialog', { name: /WEB-1/ });
    const title = panel.getByLabel('Title');
    // The previous test's edits are still arriving by the live feed: each redraws the panel, and a
    // redraw while typing blurs the field, which saves the draft before the agent's change. Type only
    // once the panel shows the card's current version.
    const current = (await task('WEB-1')).version;
    await page.locator('.panel-head', { hasText: `version ${current}` }).waitFor();
    await title.fill('My title from the board');
    // An agent renames it while the edit is open (the panel re-reads the card; the draft stays).
    const v = (await task('WEB-1')).version;
    expect((await server.call('PATCH', '/api/v1/tasks/WEB-1', { title: agentTitle, expectedVersion: v })).status).toBe(200);
    await page.locator('.panel-head', { hasText: `version ${v + 1}` }).waitFor();
    const alert = panel.getByRole('alert');
    const conflict = alert.getByText(/Not saved: WEB-1 was changed by agent:test/);
    // A key pressed while the panel is being redrawn (the live feed, on a busy machine) can be lost
    // with the field it was typed into; pressing again saves the same draft, and meets the same conflict.
    await until(
      'the conflict shown',
      async () => {
        if (await conflict.isVisible()) return true;
        await title.press('Enter');
        return conflict.waitFor({ timeout: 3000 }).then(
          () => true,
          () => false,
        );
      },
      10_000,
    );
    expect(await alert.innerText()).toContain(agentTitle);
    expect((await task('WEB-1')).title).toBe(agentTitle);
    // The field takes the fresh title once the panel has read the card again.
    await until('the fresh title in the field', async () => (await title.inputValue()) === agentTitle);
    await page.keyboard.press('Escape');
  });

  it('snaps a dragged card back and says why when it changed meanwhile', async () => {
    const { page } = browser;
    // Hold the feed so the board keeps the old version, then let an agent change the card.
    await page.route('**/api/v1/events', (route) => route.abort());
    await page.evaluate(() => (globalThis as any).cairnBoard.dropConnection());
    await page.locator('.feed', { hasText: 'Reconnecting' }).waitFor();
    const before = await task('WEB-1');
    expect((await server.call('PATCH', '/api/v1/tasks/WEB-1', { priority: 'urgent', expectedVersion: before.version })).status).toBe(200);
    await card('WEB-1').dragTo(lane('review').locator('.lane-body'), { targetPosition: { x: 40, y: 10 } });
    const alert = page.locator('.notice-conflict');
    await alert.getByText(/Not saved: WEB-1 was changed .*Your move to Review was not applied/).waitFor();
    expect(await alert.innerText()).toContain(`version ${before.version + 1}`);
    await lane(before.status).locator('[data-card="WEB-1"]').waitFor();
    expect((await task('WEB-1')).status).toBe(before.status);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await page.unroute('**/api/v1/events');
    await page.locator('.feed', { hasText: 'Live' }).waitFor();
  });

  it('reconnects after a dropped connection with Last-Event-ID and loses no event', async () => {
    const { page } = browser;
    const resumes: string[] = [];
    await page.route('**/api/v1/events', (route) => {
      const h = route.request().headers()['last-event-id'];
      if (h) resumes.push(h);
      return route.abort();
    });
    await page.evaluate(() => (globalThis as any).cairnBoard.dropConnection());
    await page.locator('.feed', { hasText: 'Reconnecting' }).waitFor();
    // Changes while the board is cut off.
    server.ok(['add', 'Made while offline', '--project', 'WEB'], 'agent:offline');
    server.ok(['update', 'WEB-2', '--title', 'Renamed while offline'], 'agent:offline');
    await until('a refused resume attempt', () => resumes.length > 0);
    await page.unroute('**/api/v1/events');
    await page.locator('.feed', { hasText: 'Live' }).waitFor();
    await card('WEB-6').waitFor();
    await card('WEB-2').getByText('Renamed while offline').waitFor();
    expect(Number(resumes[0])).toBeGreaterThan(0);
  });

  it('filters by assignee, label, kind and priority through the list API', async () => {
    const { page } = browser;
    await server.call('POST', '/api/v1/tasks', { project: 'WEB', title: 'Filter me', kind: 'bug', priority: 'urgent', labels: ['flt'], assignee: 'agent:filter' });
    await card('WEB-7').waitFor();
    await page.reload();
    await card('WEB-7').waitFor();
    await page.getByLabel('Kind').selectOption('bug');
    await until('only bugs', async () => (await page.locator('.card').count()) === 1);
    expect(await page.locator('.card').getAttribute('data-card')).toBe('WEB-7');
    expect(await lane('todo').locator('.count').innerText()).toBe('1');
    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Label').selectOption('flt');
    await page.getByLabel('Priority').selectOption('urgent');
    await page.getByLabel('Assignee').selectOption('agent:filter');
    await until('one card', async () => (await page.locator('.card').count()) === 1);
    // A live change that no longer matches leaves the filtered board.
    server.ok(['update', 'WEB-7', '--priority', 'low']);
    await until('WEB-7 filtered out', async () => (await card('WEB-7').count()) === 0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await card('WEB-7').waitFor();
  });

  it('shows the ready queue in order and the dependency graph', async () => {
    const { page } = browser;
    await page.getByRole('link', { name: 'Ready' }).click();
    await page.getByRole('heading', { name: /Ready to start/ }).waitFor();
    const ready = (await server.call('GET', '/api/v1/ready?project=WEB&limit=100')).body.tasks.map((t: { id: string }) => t.id);
    await until('the ready list', async () => (await page.locator('.ready-list li').count()) === ready.length);
    expect(await page.locator('.ready-list .card-id').allInnerTexts()).toEqual(ready);
    await page.getByRole('link', { name: 'Graph' }).click();
    await page.getByRole('heading', { name: /Dependencies of/ }).waitFor();
    server.ok(['block', 'WEB-6', '--by', 'WEB-5']);
    await page.getByRole('button', { name: /WEB-6 .*waits on WEB-5/ }).waitFor();
    expect(await page.locator('.graph path.edge').count()).toBeGreaterThanOrEqual(1);
    await page.getByRole('link', { name: 'Board' }).click();
    await card('WEB-1').waitFor();
  });

  it('completes, archives and restores a card from its panel', async () => {
    const { page } = browser;
    await card('WEB-6').locator('.card-title').click();
    const panel = page.getByRole('dialog', { name: /WEB-6/ });
    await panel.getByRole('button', { name: 'Archive' }).click();
    await until('WEB-6 off the board', async () => (await card('WEB-6').count()) === 0);
    await panel.getByRole('button', { name: 'Restore' }).click();
    await card('WEB-6').waitFor();
    await panel.getByRole('button', { name: 'Complete' }).click();
    // With the panel open the board is narrower, and its finished lanes may be folded to fit.
    await unfold(page, 'done');
    await lane('done').locator('[data-card="WEB-6"]').waitFor();
    expect((await task('WEB-6')).statusCategory).toBe('done');
    await page.keyboard.press('Escape');
  });

  it('switches projects (lanes follow the workflow) and finds cards by search', async () => {
    const { page } = browser;
    expect((await server.call('POST', '/api/v1/projects', { key: 'DP', name: 'DevPlanner board', template: 'devplanner' })).status).toBe(201);
    await server.call('POST', '/api/v1/tasks', { project: 'DP', title: 'Upcoming card about quokkas', description: 'The **quokka** habitat survey.' });
    await page.getByLabel('Project').locator('option', { hasText: 'DP — DevPlanner board' }).waitFor({ state: 'attached' });
    await page.getByLabel('Project').selectOption('DP');
    await card('DP-1').waitFor();
    expect((await page.locator('.lane h2').allInnerTexts()).map((h) => h.replace(/\s*\d+$/, '').trim())).toEqual(['Upcoming', 'In Progress', 'Complete', 'Archive']);
    expect(page.url()).toContain('#/DP/board');
    await page.getByLabel('Search cards').fill('quokka');
    const hit = page.locator('.search-hit', { hasText: 'DP-1' });
    await hit
      .locator('mark', { hasText: /quokka/i })
      .first()
      .waitFor();
    await hit.click();
    await page.getByRole('dialog', { name: /DP-1/ }).getByText('habitat survey').waitFor();
    await page.keyboard.press('Escape');
    await page.getByLabel('Project').selectOption('WEB');
    await card('WEB-1').waitFor();
  });

  it('leaves the focus where the user went while a quick add waited for the server, so a title draft is not saved early', async () => {
    const { page } = browser;
    // A quick add gives the focus back to its field when the server has answered. Its request is held
    // until a title is being edited in the panel.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const isAdd = (url: URL) => url.pathname === '/api/v1/tasks';
    await page.route(isAdd, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    // What the page sends, recorded in the page as it is sent (a draft would go out in a blur).
    await page.evaluate(() => {
      const g = globalThis as any;
      const send = g.fetch;
      g.__sent = [];
      g.fetch = (url: string, init?: { method?: string; body?: string }) => {
        if (init?.method && init.method !== 'GET') g.__sent.push(`${init.method} ${url} ${init.body ?? ''}`);
        return send(url, init);
      };
    });
    try {
      await page.getByRole('button', { name: 'Add a card to To do' }).click();
      await page.getByLabel('New card title in To do').fill('Added while a title is edited');
      await page.getByLabel('New card title in To do').press('Enter');
      await card('WEB-1').locator('.card-title').click();
      const title = page.getByRole('dialog', { name: /WEB-1/ }).getByLabel('Title');
      const before = (await task('WEB-1')).title;
      await title.fill('A draft not finished yet');
      release();
      await page.locator('.card', { hasText: 'Added while a title is edited' }).waitFor();
      // The quick add's answer is in: the focus stayed in the title, and nothing about WEB-1 was sent.
      expect(await title.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
      const sent: string[] = await page.evaluate(() => (globalThis as any).__sent);
      expect(sent.filter((s) => s.includes('/tasks/WEB-1'))).toEqual([]);
      expect((await task('WEB-1')).title).toBe(before);
      expect(await title.inputValue()).toBe('A draft not finished yet');
      // Leaving the field saves it, as always.
      await page.locator('#panel-title').click();
      await until('the draft saved', async () => (await task('WEB-1')).title === 'A draft not finished yet');
    } finally {
      await page.unroute(isAdd);
      await page.keyboard.press('Escape');
    }
  });
});
