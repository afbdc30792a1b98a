/**
 * `cairn serve` refuses to start on a workspace it cannot open (issue 31, item 7): it exits non-zero
 * with the reason, rather than printing it and then neither listening nor leaving.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { onPostgres } from '../helpers/engine.js';
import { openRaw } from '../helpers/raw-db.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { BIN } from '../handoff/remote-harness.js';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.cleanup();
  ws = undefined;
});

function serve(db: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', db], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CAIRN_ACCESS_LOG: '0' } });
    let stderr = '';
    child.stderr!.on('data', (d) => {
      stderr += d;
      // A server that listens on such a workspace is the bug: stop it and report what it said.
      if (/"url":"http/.test(stderr)) child.kill('SIGTERM');
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('cairn serve on a workspace newer than it understands', () => {
  it('exits non-zero naming the schema versions, without listening', async () => {
    ws = tempWorkspace();
    const c = openCairn({ db: ws.db });
    await c.call('create_project', { key: 'NEW', name: 'new' });
    await c.close();
    const raw = await openRaw(ws.db);
    try {
      if (onPostgres) await raw.run("INSERT INTO cairn_schema (version, name) VALUES (999, 'from the future')");
      else await raw.run('PRAGMA user_version = 999');
    } finally {
      await raw.close();
    }
    const out = await serve(ws.db);
    expect(out.stderr).not.toContain('"url":"http');
    expect(out.stderr).toContain('has schema version 999, newer than this Cairn understands');
    expect(out.code).not.toBe(0);
    expect(out.code).not.toBeNull();
  });
});
