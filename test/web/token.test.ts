/** A token-protected `cairn serve`: the page loads without a token, asks for one, keeps it in localStorage, and the API's rules stay as they were. */
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeSerious, describeBrowser, openBrowser, startServer, type Browser, type Server } from './board-harness.js';

/** A GET with a Host header of our choosing (fetch will not set Host). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end();
  });
}

describeBrowser('web board with tokens', () => {
  let server: Server;
  let browser: Browser;
  let secret = '';

  beforeAll(async () => {
    server = await startServer({
      setup: (cli) => {
        expect(cli(['project', 'create', 'SEC', 'Secured']).code).toBe(0);
        cli(['add', 'Guarded card', '--project', 'SEC']);
        secret = JSON.parse(cli(['token', 'create', '--name', 'board', '--scope', 'write', '--json']).stdout).secret;
      },
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the page without a token, but not the API, and keeps the Host guard on both', async () => {
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/projects`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/v1/events`)).status).toBe(401);
    expect(await getWithHost(`${server.url}/`, 'evil.example')).toBe(403);
    expect(await getWithHost(`${server.url}/api/v1/projects`, 'evil.example')).toBe(403);
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).not.toContain('cairn_');
  });

  it('asks for a token, refuses a wrong one, keeps the right one in localStorage', async () => {
    const { page } = browser;
    await page.goto(server.url);
    const dialog = page.getByRole('dialog', { name: 'API token needed' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('This server requires an API token');
    expect(await axeSerious(page)).toEqual([]);
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('token-input');
    await dialog.getByLabel('Token').fill('cairn_not-a-real-token');
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.getByText(/The saved token was refused/).waitFor();
    await dialog.getByLabel('Token').fill(secret);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await page.locator('[data-card="SEC-1"]').waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).localStorage.getItem('cairn.token'))).toBe(secret);
    // The live feed runs with the token too.
    await page.locator('.feed', { hasText: 'Live' }).waitFor();
    server.ok(['add', 'Added while the board watches', '--project', 'SEC']);
    await page.locator('[data-card="SEC-2"]').waitFor();
  });

  it('remembers the token across a reload and records edits under the token', async () => {
    const { page } = browser;
    await page.reload();
    await page.locator('[data-card="SEC-1"]').waitFor();
    expect(await page.getByRole('dialog', { name: 'API token needed' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add a card to To do' }).click();
    await page.getByLabel('New card title in To do').fill('Added with the token');
    await page.getByLabel('New card title in To do').press('Enter');
    await page.locator('[data-card="SEC-3"]').waitFor();
    server.token = secret;
    const res = await server.call('GET', '/api/v1/tasks/SEC-3/history');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const history = res.body.events;
    // The token's name is the actor ("board"; older servers said "token:board").
    expect(history[0].actor).toMatch(/^(token:)?board$/);
  });
});
