/** Test workspaces: a real SQLite file in a fresh temporary directory per test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCairn, type Cairn, type OpenCairnOptions } from '../../src/index.js';

export interface TempWorkspace {
  dir: string;
  db: string;
  cleanup(): void;
}

export function tempWorkspace(prefix = 'cairn-test-'): TempWorkspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, db: join(dir, '.cairn', 'cairn.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A Cairn over a fresh workspace file; call `done()` to close and delete it. */
export function tempCairn(opts: OpenCairnOptions = {}): Cairn & { ws: TempWorkspace; done(): Promise<void> } {
  const ws = tempWorkspace();
  const cairn = openCairn({ db: ws.db, actor: 'tester', ...opts });
  return Object.assign(cairn, {
    ws,
    async done() {
      await cairn.close();
      ws.cleanup();
    },
  });
}
