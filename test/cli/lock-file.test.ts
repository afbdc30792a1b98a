/**
 * The lock file behind the outbox's delivery and the repository registry (src/lock-file.ts): one
 * holder among processes that try at the same instant, a dead holder's lock taken over, a live
 * one's respected, and the holder named from the moment the file exists.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tryLock } from '../../src/lock-file.js';

const LOCK_MODULE = resolve(import.meta.dirname, '../../dist/lock-file.js');
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A process that waits for `at` (ms since the epoch), tries the lock, notes that it tried, and prints
 * what it got; a winner holds the lock until all `n` contenders have tried (however late one starts).
 */
function contender(file: string, at: number, n: number, round: string): Promise<string> {
  const script = `
    const fs = require('node:fs');
    const { tryLock } = await import(${JSON.stringify(LOCK_MODULE)});
    while (Date.now() < ${at});
    const got = tryLock(${JSON.stringify(file)});
    const held = 'unlock' in got ? fs.readFileSync(${JSON.stringify(file)}, 'utf8') : '';
    fs.writeFileSync(${JSON.stringify(round)} + '-' + process.pid, '');
    if ('unlock' in got) {
      while (fs.readdirSync(${JSON.stringify(dir)}).filter((f) => f.startsWith(${JSON.stringify(round.split('/').pop())} + '-')).length < ${n}) await new Promise((r) => setTimeout(r, 10));
      got.unlock();
      process.stdout.write('won ' + held);
    } else process.stdout.write('busy ' + got.holder);`;
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${script}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', () => done(out));
  });
}

describe('lock file', () => {
  it('among eight processes trying at the same instant, exactly one holds the lock, every round', async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-lock-'));
    const file = join(dir, '.lock');
    for (let round = 0; round < 12; round++) {
      const at = Date.now() + 500;
      const outs = await Promise.all(Array.from({ length: 8 }, () => contender(file, at, 8, join(dir, `round${round}`))));
      const won = outs.filter((o) => o.startsWith('won '));
      expect(won, outs.join(' | ')).toHaveLength(1);
      // The winner's file named it in full from the start; the others saw that pid, never an empty file.
      const winner = Number(won[0]!.split(' ')[1]);
      for (const o of outs.filter((x) => x.startsWith('busy '))) expect(Number(o.split(' ')[1])).toBe(winner);
    }
  });

  it("takes over a dead holder's lock (and an empty one a crash left), never a live holder's", () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-lock-'));
    const file = join(dir, '.lock');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(file, `${gone} abc`);
    const taken = tryLock(file);
    expect('unlock' in taken).toBe(true);
    expect(readFileSync(file, 'utf8').split(' ')[0]).toBe(String(process.pid));
    if ('unlock' in taken) taken.unlock();

    writeFileSync(file, '');
    const fromEmpty = tryLock(file);
    expect('unlock' in fromEmpty).toBe(true);
    if ('unlock' in fromEmpty) fromEmpty.unlock();

    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      writeFileSync(file, `${live.pid} xyz`);
      expect(tryLock(file)).toEqual({ holder: live.pid });
      expect(readFileSync(file, 'utf8')).toBe(`${live.pid} xyz`);
    } finally {
      live.kill();
    }
  });
});
