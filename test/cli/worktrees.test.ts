/**
 * Worktrees: agents working side by side in `git worktree add` checkouts of one repository share
 * one workspace (the main checkout's .cairn), and a claim records which worktree, branch and commit
 * it was made from, so a person (or the next agent) knows where the work lives. Real git, the built
 * CLI in each worktree, and stdio MCP servers started inside a worktree with both SDK clients.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectV1, connectV2, ok } from '../mcp/helpers.js';
import { cliHarness, okJson, type CliHarness } from './cli-harness.js';

let h: CliHarness;
let repo: string;
let wtA: string;
let wtB: string;
const gitEnv = (home: string) => ({
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: home,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
});
const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: gitEnv(h.dir) });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

beforeAll(() => {
  h = cliHarness({ useEnvDb: false });
  // realpath: a claim records the folder as git and the process see it (macOS /var → /private/var).
  repo = join(realpathSync(h.dir), 'repo');
  spawnSync('mkdir', ['-p', repo]);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# repo\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'first');
  expect(h.run(['init', '--key', 'WT', '--name', 'Worktrees'], { cwd: repo }).code).toBe(0);
  wtA = join(realpathSync(h.dir), 'wt-a');
  wtB = join(realpathSync(h.dir), 'wt-b');
  git(repo, 'worktree', 'add', '-q', '-b', 'feature-a', wtA);
  git(repo, 'worktree', 'add', '-q', '-b', 'feature-b', wtB);
  writeFileSync(join(wtA, 'a.txt'), 'a\n');
  git(wtA, 'add', '-A');
  git(wtA, 'commit', '-qm', 'work in a');
});
afterAll(() => h?.cleanup());

describe('git worktrees', () => {
  it('the CLI in a linked worktree uses the main checkout workspace: one set of tasks, no .cairn of its own', () => {
    for (const title of ['from a', 'from b', 'for v1', 'for v2']) expect(okJson(h.run(['add', title, '--json'], { cwd: title === 'from a' ? wtA : wtB })).task.id).toMatch(/^WT-\d$/);
    expect(existsSync(join(wtA, '.cairn'))).toBe(false);
    expect(existsSync(join(wtB, '.cairn'))).toBe(false);
    const seen = okJson(h.run(['list', '--json'], { cwd: repo })).tasks.map((t: { title: string }) => t.title);
    expect(seen.sort()).toEqual(['for v1', 'for v2', 'from a', 'from b']);
  });

  it('a claim records the worktree, branch and commit it was made from; show prints them', () => {
    const head = git(wtA, 'rev-parse', 'HEAD');
    const claimed = okJson(h.run(['start', 'WT-1', '--json'], { cwd: wtA }));
    expect(claimed.task.claim.where).toEqual({ worktree: wtA, branch: 'feature-a', head });
    const shown = h.run(['show', 'WT-1'], { cwd: repo });
    expect(shown.stdout).toContain(`from ${wtA} on feature-a at ${head.slice(0, 10)}`);
    // A renewal from elsewhere keeps where the work is.
    const renewed = okJson(h.run(['start', 'WT-1', '--json'], { cwd: wtB }));
    expect(renewed.task.claim.where.worktree).toBe(wtA);
  });

  it('a stdio MCP server started inside a worktree records it, with either SDK client', async () => {
    const head = git(wtB, 'rev-parse', 'HEAD');
    const v1 = await connectV1({ cwd: wtB, env: { CAIRN_ACTOR: 'agent:v1' } });
    const v2 = await connectV2({ cwd: wtB, env: { CAIRN_ACTOR: 'agent:v2' } });
    try {
      const a = (await ok(v1, 'claim_task', { id: 'WT-3' })).data.task as { claim: { actor: string; where: unknown } };
      const b = (await ok(v2, 'claim_task', { id: 'WT-4' })).data.task as { claim: { actor: string; where: unknown } };
      expect(a.claim).toMatchObject({ actor: 'agent:v1', where: { worktree: wtB, branch: 'feature-b', head } });
      expect(b.claim).toMatchObject({ actor: 'agent:v2', where: { worktree: wtB, branch: 'feature-b', head } });
    } finally {
      await v1.close();
      await v2.close();
    }
    // Both servers wrote into the main checkout's workspace.
    const list = okJson(h.run(['list', '--json'], { cwd: repo })).tasks as Array<{ id: string; claim?: { actor: string } }>;
    expect(
      list
        .filter((t) => t.claim)
        .map((t) => `${t.id}:${t.claim!.actor}`)
        .sort(),
    ).toEqual(['WT-1:tester', 'WT-3:agent:v1', 'WT-4:agent:v2']);
  });
});
