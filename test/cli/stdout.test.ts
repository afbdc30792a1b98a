/**
 * Output into pipes and files, which the CLI writes straight to fd 1 (src/cli/stdout.ts): every byte
 * reaches a slow reader, a reader that leaves ends the command quietly, and a file gets the same text.
 * Shell pipelines, so stdout is a real pipe as an agent's or a person's shell makes it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliHarness, type CliHarness } from './cli-harness.js';

describe('cairn output into pipes and files', () => {
  let h: CliHarness;
  // 50,000 two-byte characters: 100 KB of UTF-8, more than a pipe holds (64 KiB on Linux).
  const description = 'é'.repeat(49_990) + ' end.';
  beforeAll(() => {
    h = cliHarness();
    h.ok(['init', '--key', 'API']);
    h.ok(['add', 'Long one', '--description', description]);
  });
  afterAll(() => h.cleanup());

  const bash = (script: string) =>
    spawnSync('bash', ['-o', 'pipefail', '-c', script], {
      cwd: h.dir,
      env: { ...process.env, NODE: process.execPath, CAIRN: BIN, CAIRN_DB: h.db, NO_COLOR: '1' },
      encoding: 'utf8',
    });

  it('writes output larger than the pipe whole to a reader that starts late', () => {
    const r = bash('"$NODE" "$CAIRN" show API-1 --json | (sleep 0.3; cat)');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).task.description).toBe(description);
  });

  it('ends quietly, with status 0, when the reader goes away first', () => {
    // `true` exits without reading: the write meets a closed pipe (EPIPE).
    const r = bash('"$NODE" "$CAIRN" show API-1 --json 2>err.txt | true; echo "status ${PIPESTATUS[0]}"');
    expect(r.stdout.trim()).toBe('status 0');
    expect(readFileSync(join(h.dir, 'err.txt'), 'utf8')).toBe('');
  });

  it('writes the same text into a file as into a pipe, and appends with >>', () => {
    const piped = bash('"$NODE" "$CAIRN" list | cat');
    const filed = bash('"$NODE" "$CAIRN" list > out.txt && "$NODE" "$CAIRN" list >> out.txt');
    expect(filed.status).toBe(0);
    expect(piped.stdout).toMatch(/API-1 +todo +\S+ +Long one/);
    expect(readFileSync(join(h.dir, 'out.txt'), 'utf8')).toBe(piped.stdout + piped.stdout);
  });
});
