/**
 * The repository registry (seed 003's dependency-id mapping) as users meet it: workspaces register
 * when created or opened, writers running at once lose no entry, a damaged file is rewritten, and
 * the names a repository answers to are read the way git and npm spell them.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteSlug } from '../../src/core/rules/repo-names.js';
import { repoIdentity } from '../../src/core/places/repo-identity.js';
import { openCairn } from '../../src/index.js';
import { waitFor } from '../helpers/wait.js';
import { connectV1, ROOT } from '../mcp/helpers.js';

const BIN = join(ROOT, 'bin', 'cairn.js');
const run = promisify(execFile);
let base: string;
let registry: string;
const env = () => ({ ...process.env, CAIRN_REGISTRY: registry, NO_COLOR: '1', CAIRN_ACTOR: 'tester' });
const listed = (): Array<{ root: string; projects: Array<{ key: string }> }> => JSON.parse(readFileSync(registry, 'utf8')).repositories;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'cairn-registry-'));
  registry = join(base, 'home', '.config', 'cairn', 'repos.json');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function repoWithWorkspace(name: string, key: string): Promise<string> {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  const c = openCairn({ db: join(dir, '.cairn', 'cairn.db') }); // the library registers nothing
  await c.call('create_project', { key, name, root: dir });
  await c.close();
  return dir;
}

describe('repository registry', () => {
  it('names a repository the way git and npm spell it', () => {
    for (const url of ['git@github.com:Acme/Core-Lib.git', 'https://github.com/acme/core-lib', 'ssh://git@git.example.com:2222/acme/core-lib.git', 'github.com/acme/core-lib', 'acme/core-lib/']) {
      expect(remoteSlug(url)).toBe('acme/core-lib');
    }
    expect(remoteSlug('@acme/core')).toBeUndefined();
    expect(remoteSlug('left-pad')).toBeUndefined();
  });

  it("reads a repository's package name and origin remote, also from a linked worktree and a project in a subfolder", () => {
    const repo = join(base, 'identity');
    mkdirSync(join(repo, 'packages', 'ui'), { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'upstream', 'https://github.com/other/fork']);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'git@github.com:acme/mono.git']);
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: '@acme/mono' }));
    writeFileSync(join(repo, 'packages', 'ui', 'package.json'), JSON.stringify({ name: '@acme/ui' }));
    expect(repoIdentity(repo)).toEqual({ package: '@acme/mono', remote: 'acme/mono' });
    expect(repoIdentity(join(repo, 'packages', 'ui'))).toEqual({ package: '@acme/ui', remote: 'acme/mono' });
    execFileSync('git', ['-C', repo, 'add', 'package.json']);
    execFileSync('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'x']);
    const tree = join(base, 'identity-tree');
    execFileSync('git', ['-C', repo, 'worktree', 'add', '-q', tree]);
    expect(repoIdentity(tree)).toEqual({ package: '@acme/mono', remote: 'acme/mono' });
    writeFileSync(join(repo, 'package.json'), '{ not json');
    expect(repoIdentity(repo)).toEqual({ remote: 'acme/mono' });
  });

  it('eight processes registering at once lose no entry', async () => {
    const dirs = await Promise.all(Array.from({ length: 8 }, (_, i) => repoWithWorkspace(`many-${i}`, `M${'ABCDEFGH'[i]}`)));
    await Promise.all(dirs.map((dir) => run(process.execPath, [BIN, 'repos', 'add'], { cwd: dir, env: env() })));
    expect(
      listed()
        .filter((r) => r.root.includes('many-'))
        .map((r) => r.root)
        .sort(),
    ).toEqual(dirs.sort());
  });

  it('cairn mcp registers the workspace it opens; a CLI write registers it too', async () => {
    const opened = await repoWithWorkspace('opened', 'OPEN');
    const client = await connectV1({ cwd: opened, env: { CAIRN_REGISTRY: registry } });
    try {
      await waitFor(() => {
        try {
          return listed().some((r) => r.root === opened);
        } catch {
          return false;
        }
      }, 'cairn mcp registered its workspace');
    } finally {
      await client.close();
    }
    const written = await repoWithWorkspace('written', 'WRIT');
    await run(process.execPath, [BIN, 'add', 'First task'], { cwd: written, env: env() });
    expect(
      listed()
        .find((r) => r.root === written)
        ?.projects.map((p) => p.key),
    ).toEqual(['WRIT']);
  });

  it('cairn repos drops repositories whose workspace is gone; a damaged registry file is rewritten whole', async () => {
    const doomed = await repoWithWorkspace('doomed', 'DOOM');
    await run(process.execPath, [BIN, 'repos', 'add'], { cwd: doomed, env: env() });
    rmSync(doomed, { recursive: true, force: true });
    const out = JSON.parse((await run(process.execPath, [BIN, 'repos', '--json'], { cwd: base, env: env() })).stdout);
    expect(out.dropped).toBe(1);
    expect(out.repositories.some((r: { root: string }) => r.root === doomed)).toBe(false);
    writeFileSync(registry, '{"version": 1, "repositories": [tru');
    expect(JSON.parse((await run(process.execPath, [BIN, 'repos', '--json'], { cwd: base, env: env() })).stdout).repositories).toEqual([]);
    const again = await repoWithWorkspace('again', 'AGN');
    await run(process.execPath, [BIN, 'repos', 'add'], { cwd: again, env: env() });
    expect(listed().map((r) => r.root)).toEqual([again]);
  });

  it('clear errors: forgetting what is not registered, registering a folder with no workspace, a registry turned off', async () => {
    const fail = (args: string[], extra: Record<string, string> = {}) =>
      run(process.execPath, [BIN, ...args], { cwd: base, env: { ...env(), ...extra } }).then(
        () => {
          throw new Error('expected a failure');
        },
        (e: { stderr: string; code: number }) => e,
      );
    const forget = await fail(['repos', 'forget', 'nothing-here']);
    expect(forget.stderr).toContain('No registered repository is "nothing-here"');
    expect(forget.stderr).toContain('cairn repos');
    const bare = join(base, 'bare');
    mkdirSync(bare);
    expect((await fail(['repos', 'add', bare])).stderr).toContain('has no Cairn workspace');
    expect((await fail(['repos'], { CAIRN_REGISTRY: 'off' })).stderr).toContain('turned off (CAIRN_REGISTRY=off)');
  });
});
