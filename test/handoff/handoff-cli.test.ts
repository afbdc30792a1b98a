/** `cairn handoff` and `cairn doc` through the built bin, between two repositories' workspaces (issue 16, item 1). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = resolve(import.meta.dirname, '../../bin/cairn.js');
let base: string;

function cairn(cwd: string, args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', CAIRN_ACTOR: 'tester' };
  for (const k of Object.keys(env)) if (k.startsWith('CAIRN_') && k !== 'CAIRN_ACTOR') delete env[k];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'cairn-handoff-cli-'));
  for (const [name, key] of [
    ['api', 'API'],
    ['core', 'CORE'],
  ] as const) {
    mkdirSync(join(base, name));
    spawnSync('git', ['init', '-q', join(base, name)]);
    expect(cairn(join(base, name), ['init', '--key', key, '--name', name]).code).toBe(0);
  }
  expect(cairn(join(base, 'core'), ['project', 'update', 'CORE', '--root', '.', '--aliases', '@acme/core']).code).toBe(0);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('cairn handoff / cairn doc', () => {
  it('hands a task to ../core, repeats with the same key without a second task, and writes then finds its document', () => {
    const api = join(base, 'api');
    const first = cairn(api, ['handoff', '../core', 'Fix the parser', '--details', 'It drops **bold**', '--anchors', 'src/parser.ts', '--idempotency-key', 'k-1', '--priority', 'high']);
    expect(first.stdout, first.stderr).toContain('Handed off: CORE-1 in CORE');
    const again = cairn(api, [
      'handoff',
      '../core',
      'Fix the parser',
      '--details',
      'It drops **bold**',
      '--anchors',
      'src/parser.ts',
      '--idempotency-key',
      'k-1',
      '--priority',
      'high',
      '--json',
    ]).json();
    expect(again).toMatchObject({ taskId: 'CORE-1', replayed: true, persistedOffline: false });
    // The key names that handoff: another title under it is refused, not answered as the first.
    expect(cairn(api, ['handoff', '../core', 'Fix the lexer', '--idempotency-key', 'k-1', '--json']).json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    const refused = cairn(api, ['handoff', '../core', 'Escape', '--anchors', '../api/secret.txt', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('ANCHOR_OUTSIDE_REPOSITORY');
    const core = join(base, 'core');
    expect(cairn(core, ['list', '--json']).json().total).toBe(1);
    expect(cairn(core, ['doc', 'CORE-1', '--json']).json()).toMatchObject({ status: 'missing' });
    const made = cairn(api, ['doc', 'CORE-1', '--repository', '../core', '--no-require-existing']);
    expect(made.stdout, made.stderr).toContain(`${join(core, '.cairn', 'docs', 'CORE-1.md')}  created`);
    expect(existsSync(join(core, '.cairn', 'docs', 'CORE-1.md'))).toBe(true);
    expect(cairn(core, ['doc', 'CORE-1', '--json']).json()).toMatchObject({ status: 'active', created: false });
  });
});
