/**
 * Cairn's MCP Apps views as a chat client runs them (apps-host.ts): a real MCP client over stdio asks
 * for the tool, reads its ui:// page and shows it in a sandboxed iframe in Chromium, where a person
 * drags cards, ticks checklist items and watches agents. Each effect is checked in the workspace,
 * and each change made with the CLI in another process must reach the view.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openHost, type Host } from './apps-host.js';
import { BIN, describeBrowser, until } from './board-harness.js';

/** Set CAIRN_SCREENSHOTS=1 to refresh docs/img/mcp-app-*.png from these tests. */
const SHOTS = process.env.CAIRN_SCREENSHOTS === '1' ? resolve(import.meta.dirname, '../../docs/img') : undefined;

describeBrowser('MCP Apps views in a host', () => {
  let dir: string;
  let db: string;
  let host: Host;
  const cli = (args: string[], actor = 'tester') => {
    const r = spawnSync(process.execPath, [BIN, '--db', db, '--as', actor, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CAIRN_DB: '' } });
    if (r.status !== 0) throw new Error(`cairn ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const task = (id: string) => JSON.parse(cli(['--json', 'show', id])).task;
  const shot = async (frame: Frame, name: string) => {
    if (SHOTS) await (await frame.frameElement()).screenshot({ path: join(SHOTS, `mcp-app-${name}.png`) });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-apps-'));
    db = join(dir, 'cairn.db');
    cli(['init', '--key', 'APP', '--name', 'Apps demo']);
    cli(['add', 'Write the bridge', '--labels', 'mcp']);
    cli(['add', 'Ship the views', '--priority', 'medium', '--checklist', 'sketch', '--checklist', 'bundle']);
    cli(['add', 'Design the lanes', '--priority', 'high', '--labels', 'ui', '--checklist', 'sketch', '--checklist', 'review', '--touches', 'src/web/**']);
    cli(['block', 'APP-2', '--by', 'APP-1']);
    cli(['start', 'APP-3'], 'agent:claude');
    host = await openHost(db);
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('points the three tools at their views and serves each as an MCP Apps page', async () => {
    const { tools } = await host.client.listTools();
    const uriOf = (name: string) => (tools.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
    expect([uriOf('board_overview'), uriOf('get_task'), uriOf('next_tasks')]).toEqual(['ui://cairn/board.html', 'ui://cairn/card.html', 'ui://cairn/work.html']);
    // The views' own tools are listed for this host, marked for the views only.
    const viewOnly = tools.filter((t) => (t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility?.join() === 'app').map((t) => t.name);
    expect(viewOnly.sort()).toEqual(['archive_task', 'changes_since', 'check_paths', 'delete_task', 'list_labels', 'restore_task', 'task_history']);
  });

  it('shows the board and moves a card by dragging it, in the workspace', async () => {
    const frame = await host.show('board_overview', { project: 'APP' });
    const card = (id: string) => frame.locator(`[data-card="${id}"]`);
    await card('APP-1').waitFor();
    const headings = await frame.locator('.lane h2').allInnerTexts();
    expect(headings.map((h) => h.replace(/\s*\d+$/, '').trim())).toEqual(['Backlog', 'To do', 'In progress', 'Blocked', 'Review', 'Done', 'Canceled']);
    expect(await card('APP-3').innerText()).toContain('claimed by agent:claude');
    await frame.locator('.feed-live').waitFor();
    await shot(frame, 'board');
    await card('APP-1').dragTo(frame.locator('[data-lane="review"] .lane-body'), { targetPosition: { x: 40, y: 10 } });
    await until('APP-1 in review', () => task('APP-1').status === 'review');
    await frame.locator('[data-lane="review"] [data-card="APP-1"]').waitFor();
  });

  it('adds a card with quick add, where the sandbox allows no form submission', async () => {
    const frame = host.browser.page.frames().find((f) => f !== host.browser.page.mainFrame())!;
    await frame.getByRole('button', { name: 'Add a card to Backlog' }).click();
    await frame.getByLabel('New card title in Backlog').fill('Typed in the chat');
    await frame.getByLabel('New card title in Backlog').press('Enter');
    await frame.locator('[data-lane="backlog"] [data-card="APP-4"]').waitFor();
    expect(task('APP-4')).toMatchObject({ title: 'Typed in the chat', status: 'backlog' });
  });

  it('moves a card with the keyboard inside the view', async () => {
    const frame = host.browser.page.frames().find((f) => f !== host.browser.page.mainFrame())!;
    const title = frame.locator('[data-card="APP-1"] .card-title');
    await title.focus();
    await host.browser.page.keyboard.press('Alt+ArrowLeft');
    await until('APP-1 one lane left, in Blocked', () => task('APP-1').status === 'blocked');
  });

  it('shows a change made with the CLI in another process', async () => {
    const frame = host.browser.page.frames().find((f) => f !== host.browser.page.mainFrame())!;
    cli(['add', 'Added from a terminal', '--labels', 'cli']);
    await frame.locator('[data-card="APP-5"]').getByText('Added from a terminal').waitFor();
    cli(['update', 'APP-5', '--title', 'Renamed from a terminal']);
    await frame.locator('[data-card="APP-5"]').getByText('Renamed from a terminal').waitFor();
  });

  it('shows a card, ticks its checklist, follows the CLI, deletes and restores it', async () => {
    const frame = await host.show('get_task', { id: 'APP-2' }, { height: 900 });
    const panel = frame.getByRole('dialog', { name: /APP-2/ });
    await panel.getByLabel('Title').waitFor();
    expect(await panel.getByLabel('Title').inputValue()).toBe('Ship the views');
    expect(await panel.innerText()).toContain('APP-1'); // its blocker
    await panel.getByRole('checkbox', { name: 'sketch' }).click();
    await until('sketch ticked', () => task('APP-2').checklist[0].checked === true);
    await until('the box shows it', () => panel.getByRole('checkbox', { name: 'sketch' }).isChecked());
    cli(['comment', 'APP-2', 'Lanes look right'], 'agent:claude');
    await panel.getByText('Lanes look right', { exact: true }).waitFor();
    await panel.getByLabel('New checklist item').fill('release notes');
    await panel.getByLabel('New checklist item').press('Enter');
    await until('item added', () => task('APP-2').checklist.length === 3);
    await shot(frame, 'card');
    // Deleting asks on the button (a sandbox blocks confirm()), and goes through a view-only tool.
    await panel.getByRole('button', { name: 'Delete', exact: true }).click();
    await panel.getByRole('button', { name: /^Delete APP-2\? Click again/ }).click();
    await until('APP-2 deleted', () => task('APP-2').deletedAt !== null);
    await panel.getByRole('button', { name: 'Restore' }).click();
    await until('APP-2 restored', () => task('APP-2').deletedAt === null);
  });

  it('shows the ready queue beside the agents at work, with lease countdowns and activity', async () => {
    const frame = await host.show('next_tasks', { project: 'APP' });
    const ready = frame.locator('.ready-list');
    await ready.getByText('Renamed from a terminal').waitFor();
    // APP-2 waits on APP-1; APP-3 is held.
    expect(await ready.innerText()).not.toContain('APP-2');
    expect(await ready.innerText()).not.toContain('APP-3');
    const claims = frame.locator('table.claims');
    await claims.getByText('agent:claude').waitFor();
    expect(await claims.locator('.lease').innerText()).toMatch(/^\d+:\d\d$/);
    await frame.locator('.agents-claims code', { hasText: 'src/web/**' }).waitFor();
    // A claim made elsewhere appears, and so does its event.
    cli(['start', 'APP-5'], 'agent:codex');
    await claims.getByText('agent:codex').waitFor();
    await frame.locator('.agents-activity').getByText('agent:codex').first().waitFor();
  });

  it('approves a card put up for review, and sends another back with the reason', async () => {
    cli(['add', 'Polish the copy']);
    cli(['add', 'Tune the colours', '--checklist', 'contrast']);
    cli(['move', 'APP-6', 'review']);
    cli(['move', 'APP-7', 'review']);
    const frame = await host.show('next_tasks', { project: 'APP' });
    const approvals = frame.locator('.approvals');
    await approvals.getByRole('heading', { name: 'Waiting for approval (2)' }).waitFor();
    await shot(frame, 'work');
    await approvals.locator('[data-approval="APP-6"]').getByRole('button', { name: 'Approve' }).click();
    await until('APP-6 done', () => task('APP-6').status === 'done');
    const seven = approvals.locator('[data-approval="APP-7"]');
    await seven.getByRole('button', { name: 'Send back' }).click();
    await seven.getByLabel('Why APP-7 goes back').fill('The contrast is still too low');
    await seven.getByRole('button', { name: 'Send back to In progress' }).click();
    await until('APP-7 back in progress', () => task('APP-7').status === 'in_progress');
    expect(task('APP-7').comments.map((c: { body: string }) => c.body)).toEqual(['Sent back from review: The contrast is still too low']);
    await approvals.getByRole('heading', { name: 'Waiting for approval (0)' }).waitFor();
  });

  it("follows the host's theme and keeps to its height", async () => {
    const frame = await host.show('board_overview', { project: 'APP' }, { theme: 'dark', height: 600 });
    await frame.locator('[data-card="APP-1"]').waitFor();
    const look = () =>
      frame.evaluate(() => {
        const g = globalThis as any;
        return { theme: g.document.documentElement.dataset.theme, bg: g.getComputedStyle(g.document.body).backgroundColor, height: g.document.querySelector('.view').getBoundingClientRect().height };
      });
    expect(await look()).toEqual({ theme: 'dark', bg: 'rgb(13, 17, 23)', height: 600 });
    await shot(frame, 'board-dark');
    await host.browser.page.evaluate(() => (globalThis as unknown as { setTheme(t: string): void }).setTheme('light'));
    await until('light again', async () => (await look()).theme === 'light');
    expect((await look()).bg).toBe('rgb(246, 248, 250)');
  });

  it('ran in the sandbox with no network and no error, only through the host', async () => {
    const requests: string[] = [];
    host.browser.page.on('request', (r) => requests.push(r.url()));
    const frame = await host.show('next_tasks', { project: 'APP' });
    await frame.getByRole('heading', { name: /Ready to start/ }).waitFor();
    await new Promise((r) => setTimeout(r, 2000)); // a poll or two
    expect(requests.filter((u) => !u.startsWith('data:') && u !== 'about:srcdoc')).toEqual([]);
    // The view's origin is opaque: it cannot reach the host page or storage.
    expect(await frame.evaluate(() => (globalThis as any).origin)).toBe('null');
    expect(host.browser.errors).toEqual([]);
    expect(host.calls).toContain('changes_since');
    expect(host.calls).toContain('list_tasks');
  });
});
