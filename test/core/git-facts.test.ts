// What a claim records about its checkout (git-facts.ts) stays true as the checkout moves on: the
// answer is kept between claims only while HEAD and its ref are the files it was read from.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkoutOf, mainCheckoutOf, whereIs } from '../../src/core/services/git-facts.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-git-facts-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();
let n = 0;
const commit = (cwd: string) => {
  writeFileSync(join(cwd, 'f.txt'), String(++n));
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-qm', `c${n}`);
  return git(cwd, 'rev-parse', 'HEAD');
};

describe('where a claim is made from', () => {
  const repo = join(root, 'repo');
  it('follows commits, branch switches, a detached HEAD and packed refs at once', () => {
    execFileSync('mkdir', ['-p', join(repo, 'src', 'deep')]);
    git(repo, 'init', '-q');
    expect(whereIs(repo)).toEqual({ worktree: repo, branch: 'main', head: null });
    const first = commit(repo);
    expect(whereIs(join(repo, 'src', 'deep'))).toEqual({ worktree: repo, branch: 'main', head: first });
    const second = commit(repo);
    expect(whereIs(repo)?.head).toBe(second);
    git(repo, 'checkout', '-qb', 'feature');
    expect(whereIs(repo)).toEqual({ worktree: repo, branch: 'feature', head: second });
    const third = commit(repo);
    expect(whereIs(repo)?.head).toBe(third);
    git(repo, 'pack-refs', '--all', '--prune');
    expect(whereIs(repo)).toEqual({ worktree: repo, branch: 'feature', head: third });
    const fourth = commit(repo);
    expect(whereIs(repo)?.head).toBe(fourth);
    git(repo, 'checkout', '-q', '--detach', first);
    expect(whereIs(repo)).toEqual({ worktree: repo, branch: null, head: first });
  });

  it('tells a linked worktree from its main checkout, and each has its own HEAD', () => {
    const wt = join(root, 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', wt, 'main');
    expect(mainCheckoutOf(wt)).toBe(repo);
    expect(mainCheckoutOf(repo)).toBeUndefined();
    expect(checkoutOf(wt)?.worktree).toBe(wt);
    const side = commit(wt);
    expect(whereIs(wt)).toEqual({ worktree: wt, branch: 'side', head: side });
    expect(whereIs(repo)?.head).not.toBe(side);
  });

  it('answers nothing outside git', () => {
    const plain = join(root, 'plain');
    execFileSync('mkdir', ['-p', plain]);
    expect(whereIs(plain)).toBeUndefined();
  });
});
