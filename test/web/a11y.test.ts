/**
 * The board's accessibility (axe-core in Chromium, light and dark, wide and phone-sized) and the
 * README's screenshots (CAIRN_SCREENSHOTS=1 writes them to docs/img; otherwise to a temp folder).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axeSerious, describeBrowser, openBrowser, screenshotDir, startServer, unfold, until, type Server } from './board-harness.js';

/** A project that looks like a day of agents at work. Claims exclude: a claimed task's writes come from its holder. */
async function seed(server: Server): Promise<void> {
  const as = async (actor: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, { method, headers: { 'content-type': 'application/json', 'x-cairn-actor': actor }, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  await as('user', 'POST', '/api/v1/projects', { key: 'API', name: 'Payments API' });
  const add = async (title: string, extra: Record<string, unknown> = {}) => (await as('user', 'POST', '/api/v1/tasks', { project: 'API', title, ...extra })).task.id as string;
  const epic = await add('Card payments v2', { kind: 'epic', priority: 'high', labels: ['payments'] });
  const schema = await add('Design the ledger schema', {
    priority: 'high',
    labels: ['db', 'payments'],
    parentId: epic,
    checklist: ['tables', 'indexes', 'migration script'],
    touches: ['db/migrations/**', 'src/ledger'],
    description: '## Goal\nA double-entry **ledger** for card payments.\n\n- one row per movement\n- balances derived, never stored\n\nSee `docs/ledger.md` and [the RFC](https://example.com/rfc).',
  });
  const api = await add('Implement POST /payments', { priority: 'high', labels: ['api', 'payments'], parentId: epic, blockedBy: [schema], checklist: ['validation', 'idempotency keys'] });
  await add('Document the payments API', { kind: 'chore', labels: ['docs'], blockedBy: [api] });
  const webhook = await add('Retry failed webhooks with backoff', { kind: 'feature', priority: 'medium', labels: ['webhooks'] });
  const bug = await add('Refund rounds to the wrong cent', { kind: 'bug', priority: 'urgent', labels: ['payments', 'bug'], touches: ['src/refunds.ts'] });
  await add('Load test the checkout flow', { kind: 'spike', priority: 'low', labels: ['perf'], status: 'backlog' });
  await add('Rotate the API signing keys', { kind: 'chore', priority: 'medium', labels: ['security'] });
  const done = await add('Set up CI for the service', { labels: ['infra'] });
  await add('Add request tracing', { kind: 'feature', labels: ['observability'], status: 'backlog' });
  await as('agent:claude-1', 'POST', `/api/v1/tasks/${schema}/claim`, { leaseSeconds: 1800 });
  await as('agent:claude-1', 'POST', `/api/v1/tasks/${schema}/checklist`, {
    ops: [
      { op: 'check', index: 0 },
      { op: 'check', index: 1 },
    ],
  });
  await as('agent:codex-2', 'POST', `/api/v1/tasks/${bug}/claim`, { leaseSeconds: 900 });
  await as('agent:codex-2', 'POST', `/api/v1/tasks/${bug}/comments`, { body: 'Found it: `Math.round` on a float amount. Switching to integer cents.', kind: 'research' });
  await as('agent:claude-1', 'POST', `/api/v1/tasks/${schema}/comments`, { body: 'Tables drafted; indexes next.', kind: 'implementation' });
  await as('agent:claude-1', 'POST', `/api/v1/tasks/${schema}/checkpoints`, {
    summary: 'Tables and indexes drafted; the migration script is next.',
    next: 'Write the migration',
    questions: ['Keep balances in a view?'],
  });
  await as('agent:gemini-3', 'POST', `/api/v1/tasks/${done}/complete`, {
    comment: 'Pipeline green on main.',
    evidence: { prUrl: 'https://example.com/pr/41', test: { command: 'npm test', exitCode: 0 } },
  });
  await as('user', 'PATCH', `/api/v1/tasks/${webhook}`, {
    status: 'review',
    assignee: 'agent:gemini-3',
    links: { branch: 'feat/webhook-retries', prUrl: 'https://example.com/pr/42', prNumber: 42, prState: 'open' },
  });
}

describeBrowser('web board accessibility and screenshots', () => {
  let server: Server;
  const shots = screenshotDir();

  beforeAll(async () => {
    server = await startServer();
    await seed(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious axe violations (${colorScheme}): board, card panel, ready, graph, agents`, async () => {
      const browser = await openBrowser({ colorScheme });
      try {
        const { page } = browser;
        await page.goto(`${server.url}/#/API/board`);
        await page.locator('[data-card="API-2"]').waitFor();
        expect(await axeSerious(page)).toEqual([]);
        await page.screenshot({ path: join(shots, colorScheme === 'light' ? 'board.png' : 'board-dark.png') });
        await page.locator('[data-card="API-2"] .card-title').click();
        const panel = page.getByRole('dialog', { name: /API-2/ });
        await panel.getByText('double-entry').waitFor();
        // The coordination section: reserved paths and the holder's latest checkpoint.
        await panel.locator('.coordination .checkpoint').getByText('Write the migration').waitFor();
        expect(await panel.locator('.coordination code').allInnerTexts()).toEqual(['db/migrations/**', 'src/ledger']);
        expect(await axeSerious(page)).toEqual([]);
        if (colorScheme === 'light') await page.screenshot({ path: join(shots, 'card-detail.png') });
        await page.keyboard.press('Escape');
        for (const view of ['ready', 'graph', 'agents']) {
          await page.goto(`${server.url}/#/API/${view}`);
          await page.locator('main h2').first().waitFor();
          expect(await axeSerious(page), view).toEqual([]);
        }
        // The search box with highlighted excerpts.
        await page.getByLabel('Search cards').fill('ledger');
        await page.locator('.search-results mark').first().waitFor();
        expect(await axeSerious(page)).toEqual([]);
        expect(browser.errors).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  }

  it('shows agents at work live: claims with reserved paths and a countdown, takeover, activity newest first, evidence, touched cards named', async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(`${server.url}/#/API/agents`);
      const claims = page.locator('table.claims');
      await claims.getByText('agent:codex-2').waitFor();
      expect(await claims.innerText()).toMatch(/agent:claude-1[\s\S]*\d+:\d\d/);
      // The paths each live claim reserves (POST /paths/check).
      const reserves = (id: string) => claims.locator('tr', { hasText: id }).locator('td.reserves code').allInnerTexts();
      await until('API-2 reserves its paths', async () => (await reserves('API-2')).length === 2);
      expect(await reserves('API-2')).toEqual(['db/migrations/**', 'src/ledger']);
      expect(await reserves('API-6')).toEqual(['src/refunds.ts']);
      // Agents act from other processes; the activity shows it first thing.
      server.ok(['start', 'API-8'], 'agent:gemini-3');
      server.ok(['comment', 'API-5', 'Backoff capped at 10 minutes.'], 'agent:gemini-3');
      await page.locator('.activity li').first().getByText('API-5').waitFor();
      expect(await page.locator('.activity li').first().innerText()).toContain('agent:gemini-3 commented on API-5');
      await claims.getByText('API-8').waitFor();
      await page.screenshot({ path: join(shots, 'agents.png') });
      // Fresh entries are highlighted: still readable.
      expect(await page.locator('.activity li.fresh-event').count()).toBeGreaterThan(0);
      expect(await axeSerious(page)).toEqual([]);
      // A person steps in for a stuck agent: Take over, recorded in the history with whom it was taken from.
      await claims.getByRole('button', { name: /API-2/ }).click();
      const panel = page.getByRole('dialog', { name: /API-2/ });
      await panel.getByRole('button', { name: 'Take over' }).click();
      await panel.getByText('Claimed by user').waitFor();
      await panel.locator('.changes li', { hasText: 'takenOver: agent:claude-1 → user' }).waitFor();
      const history = (await server.call('GET', '/api/v1/tasks/API-2/history')).body.events as Array<{ actor: string; changes: Record<string, any> }>;
      const takeover = history.find((e) => e.changes.takenOver);
      expect(takeover?.actor).toBe('user');
      expect(takeover?.changes.takenOver.before.holder).toBe('agent:claude-1');
      await page.getByRole('button', { name: 'Close the card panel' }).click();
      // A finished card shows what its completion showed.
      await page.goto(`${server.url}/#/API/board`);
      await unfold(page, 'done');
      await page.locator('[data-card="API-9"] .card-title').click();
      const done = page.getByRole('dialog', { name: /API-9/ });
      expect(await done.locator('.coordination .badge').innerText()).toBe('reported');
      await done.getByText('npm test').waitFor();
      expect(await axeSerious(page)).toEqual([]);
      await page.getByRole('button', { name: 'Close the card panel' }).click();
      // On the board, the touched card carries the actor's name for a few seconds.
      server.ok(['update', 'API-3', '--priority', 'urgent'], 'agent:claude-1');
      await page.locator('[data-card="API-3"]').waitFor();
      server.ok(['check', 'API-3', '--check', '0'], 'agent:claude-1');
      await page.locator('[data-card="API-3"] .touched-by', { hasText: 'agent:claude-1' }).waitFor();
    } finally {
      await browser.close();
    }
  });

  it('works in a phone-sized viewport', async () => {
    const browser = await openBrowser({ width: 390, height: 844, hasTouch: true });
    try {
      const { page } = browser;
      await page.goto(`${server.url}/#/API/board`);
      await page.locator('[data-card="API-10"]').waitFor();
      // One lane fills most of the width; the others are a swipe away.
      const lane = await page.locator('[data-lane="todo"]').boundingBox();
      expect(lane!.width).toBeGreaterThan(300);
      expect(lane!.width).toBeLessThanOrEqual(390);
      expect(await axeSerious(page)).toEqual([]);
      await page.locator('[data-card="API-10"] .card-title').click();
      const panel = page.getByRole('dialog', { name: /API-10/ });
      await panel.waitFor();
      expect((await panel.boundingBox())!.width).toBeLessThanOrEqual(390);
      // Without drag and drop on a phone, the status field moves a card.
      await panel.getByLabel('Status').selectOption('in_progress');
      await until('API-10 in progress', async () => (await server.call('GET', '/api/v1/tasks/API-10')).body.task.status === 'in_progress');
      expect(await axeSerious(page)).toEqual([]);
      if (process.env.CAIRN_SCREENSHOTS === '1') await page.screenshot({ path: join(shots, 'phone.png') });
      await page.getByRole('button', { name: 'Close the card panel' }).click();

      // A finger drags a card by its grip to the next lane; the board scrolls sideways at the edge.
      await page.locator('[data-lane="todo"]').scrollIntoViewIfNeeded();
      const grip = (await page.locator('[data-card="API-4"] .grip').boundingBox())!;
      const cdp = await browser.context.newCDPSession(page);
      const touch = (type: string, x: number, y: number) => cdp.send('Input.dispatchTouchEvent', { type: type as 'touchStart', touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
      const underFinger = (x: number, y: number) => page.evaluate(([px, py]) => (globalThis as any).document.elementFromPoint(px, py)?.closest('[data-lane]')?.getAttribute('data-lane'), [x, y]);
      await touch('touchStart', grip.x + grip.width / 2, grip.y + grip.height / 2);
      await touch('touchMove', 300, 400);
      await touch('touchMove', 385, 400);
      await until('the In progress lane under the finger', async () => {
        await touch('touchMove', 385, 400);
        return (await underFinger(150, 400)) === 'in_progress';
      });
      const target = (await page.locator('[data-lane="in_progress"] .lane-body').boundingBox())!;
      const at = { x: Math.min(target.x + 60, 300), y: target.y + 20 };
      await touch('touchMove', at.x, at.y);
      await page.locator('[data-lane="in_progress"] .drop-line').waitFor();
      await touch('touchEnd', at.x, at.y);
      await until('API-4 in progress', async () => (await server.call('GET', '/api/v1/tasks/API-4')).body.task.status === 'in_progress');
      await page.locator('[data-lane="in_progress"] [data-card="API-4"]').waitFor();
    } finally {
      await browser.close();
    }
  });
});
