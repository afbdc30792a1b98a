/**
 * The board's rough edges (issue 37, item 3), each as a user meets it: seven lanes at 1,400 px,
 * the quick-add field taking the focus, a lane count a screen reader reads right, the Assignee
 * field at full width, a conflict said once, and the page behind the token prompt.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, openBrowser, startServer, until, type Browser, type Server } from './board-harness.js';

describeBrowser('board polish', () => {
  let server: Server;
  let browser: Browser;
  const lane = (name: string) => browser.page.locator(`[data-lane="${name}"]`);

  beforeAll(async () => {
    server = await startServer();
    expect((await server.call('POST', '/api/v1/projects', { key: 'POL', name: 'Polish' })).status).toBe(201);
    await server.call('POST', '/api/v1/tasks', { project: 'POL', title: 'Only card' });
    await server.call('POST', '/api/v1/tasks', { project: 'POL', title: 'Finished card', status: 'done' });
    browser = await openBrowser({ width: 1400 });
    await browser.page.goto(server.url);
    await browser.page.locator('[data-card="POL-1"]').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('at 1,400 px every lane fits without a sideways scroll: finished lanes fold, and unfold on a click', async () => {
    const { page } = browser;
    const board = page.locator('.board');
    const { scroll, client } = await board.evaluate((el: any) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll).toBeLessThanOrEqual(client);
    expect(await lane('done').getAttribute('data-folded')).toBe('');
    expect(await lane('canceled').getAttribute('data-folded')).toBe('');
    expect(await lane('todo').getAttribute('data-folded')).toBeNull();
    // The folded lane still says what it holds.
    expect(await lane('done').innerText()).toMatch(/Done\s*1/);
    await lane('done').getByRole('button', { name: /Done/ }).click();
    await lane('done').locator('[data-card="POL-2"]').waitFor();
    await lane('done').getByRole('button', { name: 'Fold the Done lane' }).click();
    await until('Done folded again', async () => (await lane('done').getAttribute('data-folded')) === '');
  });

  it('a lane count reads "1 card", not "1 cards"', async () => {
    expect(await lane('todo').locator('.count').getAttribute('aria-label')).toBe('1 card');
    expect(await lane('backlog').locator('.count').getAttribute('aria-label')).toBe('0 cards');
  });

  it('the + of a lane puts the focus in the new card field', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Add a card to To do' }).click();
    await until('focus in the field', async () => (await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label'))) === 'New card title in To do');
    await page.keyboard.press('Escape');
  });

  it("the Assignee field in the card panel has the panel's width, not a third of it, and its label is its own", async () => {
    const { page } = browser;
    await page.locator('[data-card="POL-1"] .card-title').click();
    const panel = page.getByRole('dialog', { name: /POL-1/ });
    const field = panel.getByLabel('Assignee');
    await field.waitFor();
    // Each label names its own field: the filter bar's Assignee is another element with another id.
    expect(await page.locator('[id]').evaluateAll((els: any[]) => els.map((e) => e.id).filter((id, i, all) => all.indexOf(id) !== i))).toEqual([]);
    const title = (await panel.getByLabel('Title').boundingBox())!;
    const assignee = (await field.boundingBox())!;
    expect(assignee.width).toBeGreaterThan(title.width * 0.9);
  });

  it('a version conflict is said once, in the panel, not again in a page banner', async () => {
    const { page } = browser;
    const panel = page.getByRole('dialog', { name: /POL-1/ });
    const title = panel.getByLabel('Title');
    await title.fill('Mine');
    const v = (await server.call('GET', '/api/v1/tasks/POL-1')).body.task.version;
    expect((await server.call('PATCH', '/api/v1/tasks/POL-1', { title: 'Theirs', expectedVersion: v })).status).toBe(200);
    await page.locator('.panel-head', { hasText: `version ${v + 1}` }).waitFor();
    await until(
      'the conflict shown',
      async () => {
        if (await panel.getByText(/Not saved: POL-1 was changed/).isVisible()) return true;
        await title.press('Enter');
        return panel
          .getByText(/Not saved: POL-1 was changed/)
          .waitFor({ timeout: 3000 })
          .then(
            () => true,
            () => false,
          );
      },
      10_000,
    );
    expect(await page.getByText(/Not saved: POL-1 was changed/).count()).toBe(1);
    await page.keyboard.press('Escape');
  });
});

describeBrowser('board behind the token prompt', () => {
  let server: Server;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({
      setup: (cli) => {
        expect(cli(['project', 'create', 'SEC', 'Secured']).code).toBe(0);
        cli(['token', 'create', '--name', 'board', '--scope', 'write']);
      },
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('does not say "No project yet" while it waits for a token to read the projects', async () => {
    const { page } = browser;
    await page.goto(server.url);
    await page.getByRole('dialog', { name: 'API token needed' }).waitFor();
    const main = await page.locator('#main').innerText();
    expect(main).not.toContain('No project yet');
    expect(main).toContain('Waiting for a token');
  });
});
