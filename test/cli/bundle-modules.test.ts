/**
 * A command from the CLI bundle takes better-sqlite3's JavaScript from the bundle and only the addon
 * from node_modules, by path (store/sqlite/native.ts, scripts/bundle-mcp.js): loading the package's
 * dozen CommonJS files, and letting it search for its addon, was 3–5 ms of every start (its package.json,
 * read for the version, may come from disk).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './cli-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-bundle-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the CLI bundle', () => {
  it('loads no better-sqlite3 JavaScript from node_modules, and one addon', () => {
    // Preloaded into the command's process: at exit, every CommonJS file and addon that came from disk.
    const probe = join(dir, 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));\n");
    const env = { ...process.env, CAIRN_DB: join(dir, 'ws.db'), CAIRN_ACTOR: 'tester', NO_COLOR: '1', XDG_CACHE_HOME: join(dir, 'cache') };
    expect(spawnSync(process.execPath, [BIN, 'project', 'create', 'BM', 'Bundle'], { env }).status).toBe(0);
    for (let run = 0; run < 2; run++) {
      // The first run makes the code cache, the second runs from it.
      const r = spawnSync(process.execPath, ['-r', probe, BIN, 'ready', '--project', 'BM'], { env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const loaded = JSON.parse(/^LOADED (.*)$/m.exec(r.stderr)![1]!) as string[];
      const sqlite = loaded.filter((f) => /[\\/]node_modules[\\/]better-sqlite3/.test(f));
      expect(sqlite.filter((f) => /\.[cm]?js$/.test(f))).toEqual([]);
      expect(sqlite.filter((f) => f.endsWith('.node'))).toHaveLength(1);
    }
  });
});
