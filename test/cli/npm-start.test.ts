/** `npm start` (scripts/start.js): seeds a demo workspace, serves it, and says where the board is. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';

const START = resolve(import.meta.dirname, '../../scripts/start.js');

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

describe('npm start', () => {
  it("prints the board's address first, and the board answers there", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-start-'));
    const port = await freePort();
    const child = spawn(process.execPath, [START], { env: { ...process.env, CAIRN_DEMO_DB: join(dir, 'demo.db'), PORT: String(port), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(() => out.includes('Board: '), 'the board line', 60_000);
      expect(out).toContain(`Board: http://127.0.0.1:${port}/   (open it in a browser)`);
      let page: Response | undefined;
      await waitFor(
        async () => {
          page = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
          return page?.status === 200;
        },
        'the board page',
        30_000,
        100,
      );
      expect(await page!.text()).toMatch(/<html/i);
      // Stopping npm start stops the server it started: nothing is left listening on the port.
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/livez`).catch(() => undefined)) === undefined, 'the server gone with npm start', 15_000, 100);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
