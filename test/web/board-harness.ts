/**
 * Browser test harness: a real `cairn serve` (the built bin, its own process) on 127.0.0.1 over a
 * temporary workspace, and Debian's Chromium driven by playwright-core. Without Chromium the
 * browser suites skip with how to install it, except under CI=true, where they fail.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin', 'cairn.js');

/** Where Chromium is: CAIRN_CHROMIUM, else Debian's package. */
export function chromiumPath(): string | undefined {
  return [process.env.CAIRN_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));
}

const INSTALL = "install Debian's Chromium with `sudo apt-get update && sudo apt-get install -y chromium` (or set CAIRN_CHROMIUM to a Chromium binary); .ci/run does this in CI";

/** describe() for browser suites: skipped with a message when Chromium is missing, failing instead under CI=true. */
export function describeBrowser(name: string, fn: () => void): void {
  if (chromiumPath()) {
    describe(name, fn);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs Chromium in CI', () => {
        throw new Error(`Chromium not found (CI=true never skips the browser tests): ${INSTALL}`);
      });
    });
    return;
  }
  process.stderr.write(`\n[test/web] skipping "${name}": Chromium not found; ${INSTALL}.\n`);
  describe.skip(name, fn);
}

export interface Server {
  url: string;
  db: string;
  dir: string;
  /** JSON REST call (with the token when the server has one). */
  call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** The built CLI in another process against the same workspace. */
  cli(args: string[], actor?: string): { code: number; stdout: string; stderr: string };
  /** cli() that fails the test with the command's output when it does not exit 0. */
  ok(args: string[], actor?: string): string;
  token?: string;
  stop(): Promise<void>;
}

function assertBuilt(): void {
  for (const f of ['dist/cli/main.js', 'dist/web/index.html']) {
    if (!existsSync(join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` before the browser tests`);
  }
}

/** A temp workspace and `cairn serve --port 0` on it. `setup` runs CLI commands before the server starts (e.g. creating a token). */
export async function startServer(opts: { env?: Record<string, string>; setup?: (cli: Server['cli']) => void } = {}): Promise<Server> {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'cairn-web-'));
  const db = join(dir, 'ws', 'cairn.db');
  const env = { ...process.env, NO_COLOR: '1' } as Record<string, string>;
  for (const k of Object.keys(env)) if (k.startsWith('CAIRN_')) delete env[k];
  const cli: Server['cli'] = (args, actor = 'tester') => {
    const r = spawnSync(process.execPath, [BIN, '--db', db, '--as', actor, ...args], { env, encoding: 'utf8' });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  opts.setup?.(cli);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...env, CAIRN_ACCESS_LOG: '0', CAIRN_RATE_LIMIT: '0', ...opts.env },
  });
  const url = await new Promise<string>((ok, fail) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /"url":"(http:\/\/[^"]+)"/.exec(err);
      if (m) ok(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`cairn serve exited (${code}): ${err}`)));
  });
  const server: Server = {
    url,
    db,
    dir,
    cli,
    ok(args, actor) {
      const r = cli(args, actor);
      if (r.code !== 0) throw new Error(`cairn ${args.join(' ')} exited ${r.code}: ${r.stdout}${r.stderr}`);
      return r.stdout;
    },
    async call(method, path, body) {
      const res = await fetch(url + path, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(server.token ? { authorization: `Bearer ${server.token}` } : { 'x-cairn-actor': 'agent:test' }) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      await new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far (a CSP violation or an exception fails the tests that check). */
  errors: string[];
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile, never a downloaded browser. */
export async function openBrowser(opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; hasTouch?: boolean } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'cairn-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath()!,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    viewport: { width: opts.width ?? 1400, height: opts.height ?? 900 },
    colorScheme: opts.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    ...(opts.hasTouch ? { hasTouch: true, isMobile: true } : {}),
  });
  context.setDefaultTimeout(30_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Runs axe-core in the page; returns violations of impact serious or critical. */
export async function axeSerious(page: Page): Promise<Array<{ id: string; impact: string; help: string; nodes: string[] }>> {
  const source = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  // Evaluated over the devtools protocol: the page's CSP (script-src 'self') does not apply to it.
  await page.evaluate(source);
  const result = await page.evaluate(async () => {
    // (This runs in the page; the test tsconfig has no DOM types.)
    const g = globalThis as any;
    const r = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n: any) => `${n.target.join(' ')}: ${n.failureSummary}`) }));
  });
  return (result as Array<{ id: string; impact: string; help: string; nodes: string[] }>).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Where screenshots go: docs/img when CAIRN_SCREENSHOTS=1 (to refresh the README's images), else a temp folder. */
export function screenshotDir(): string {
  const dir = process.env.CAIRN_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'img') : join(tmpdir(), 'cairn-web-shots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Polls `fn` until it returns something truthy; fails naming `what` after a generous ceiling (shared machines are slow). */
export async function until<T>(what: string, fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, ceilingMs = 30_000): Promise<T> {
  const end = Date.now() + ceilingMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Unfolds a lane the board folded to fit (finished lanes at narrow widths), so its cards are in the page. */
export async function unfold(page: Page, lane: string): Promise<void> {
  const section = page.locator(`[data-lane="${lane}"]`);
  await section.waitFor();
  if ((await section.getAttribute('data-folded')) === '') await section.locator('.lane-unfold').click();
  await section.locator('.lane-body').waitFor();
}
