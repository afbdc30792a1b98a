/**
 * What Cairn reads from git, by reading its files (no process per claim): which checkout a folder
 * is in, the main repository of a linked worktree (`git worktree add`), and the branch and HEAD a
 * claim was made from. Checking that a commit exists asks git itself (`git cat-file`), once per
 * completion with evidence.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { childProcess } from '../lazy-builtins.js';

export interface Checkout {
  /** The folder the checkout's files are in (a linked worktree's own folder). */
  worktree: string;
  /** Its git directory (`.git`, or `.git/worktrees/<name>` for a linked worktree). */
  gitDir: string;
  /** The repository's shared git directory (refs, objects): the main checkout's `.git`. */
  commonDir: string;
}

const read = (p: string): string | undefined => {
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    return undefined;
  }
};

// A folder's checkout does not move while a server runs, but finding it walks up the tree with a
// syscall or three per level, on every claim: found checkouts are kept a few seconds. HEAD and refs
// are read fresh each time (an agent commits between claims).
const KEEP_MS = 10_000;
const found = new Map<string, { checkout: Checkout; until: number }>();

/** The checkout `dir` is in (walking up to its `.git`), or undefined outside git. */
export function checkoutOf(dir: string): Checkout | undefined {
  const key = resolve(dir);
  const kept = found.get(key);
  if (kept && kept.until > Date.now()) return kept.checkout;
  const checkout = findCheckout(key);
  if (checkout) {
    if (found.size > 100) found.clear();
    found.set(key, { checkout, until: Date.now() + KEEP_MS });
  }
  return checkout;
}

function findCheckout(dir: string): Checkout | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    if (existsSync(dotGit)) {
      let gitDir = dotGit;
      if (statSync(dotGit).isFile()) {
        // A linked worktree (or a submodule): `.git` is a file naming its git directory.
        const m = /^gitdir:\s*(.+)$/m.exec(read(dotGit) ?? '');
        if (!m) return undefined;
        gitDir = isAbsolute(m[1]!) ? m[1]! : resolve(d, m[1]!);
      }
      const common = read(join(gitDir, 'commondir'));
      return { worktree: d, gitDir, commonDir: common ? resolve(gitDir, common) : gitDir };
    }
    if (dirname(d) === d) return undefined;
  }
}

/** The main checkout of a linked worktree's repository; undefined when `dir` is not in a linked worktree. */
export function mainCheckoutOf(dir: string): string | undefined {
  const c = checkoutOf(dir);
  if (!c || c.gitDir === c.commonDir || basename(c.commonDir) !== '.git') return undefined;
  return dirname(c.commonDir);
}

/**
 * Where `dir` sits in its repository's main checkout, when `dir` is in a linked worktree: the same
 * relative path under the main checkout. A project rooted at the main checkout (or a folder in it)
 * is then the default in every worktree of it, as it is in the main checkout.
 */
export function inMainCheckout(dir: string): string | undefined {
  const c = checkoutOf(dir);
  const main = mainCheckoutOf(dir);
  if (!c || !main) return undefined;
  const rel = relative(c.worktree, resolve(dir));
  return rel.startsWith('..') ? undefined : join(main, rel);
}

/** The commit a ref names: a loose ref file, else the packed refs. */
function resolveRef(c: Checkout, ref: string): string | null {
  for (const dir of c.gitDir === c.commonDir ? [c.gitDir] : [c.gitDir, c.commonDir]) {
    const loose = read(join(dir, ref));
    if (loose && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  }
  const packed = read(join(c.commonDir, 'packed-refs')) ?? '';
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return null;
}

type Where = { worktree: string; branch: string | null; head: string | null };

/** Identifies a file's current version without reading it (a ref update replaces the file). */
function stamp(path: string): string {
  const s = statSync(path, { throwIfNoEntry: false });
  return s ? `${s.ino}:${s.mtimeMs}:${s.size}` : '-';
}

// Every claim records where it was made from: reading HEAD and its ref costs four syscalls a file, a
// stat one. The answer is kept per checkout while none of the files it came from changed.
const answers = new Map<string, { stamps: Array<[string, string]>; where: Where }>();

const headRef = (c: Checkout): string | undefined => /^ref:\s*(\S+)$/.exec(read(join(c.gitDir, 'HEAD')) ?? '')?.[1];

function readWhere(c: Checkout): Where {
  const head = read(join(c.gitDir, 'HEAD')) ?? '';
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (!ref) return { worktree: c.worktree, branch: null, head: /^[0-9a-f]{40,64}$/.test(head) ? head : null };
  return { worktree: c.worktree, branch: ref.replace(/^refs\/heads\//, ''), head: resolveRef(c, ref) };
}

/** The worktree, its branch (null when detached) and HEAD commit (null before the first commit) for `dir`. */
export function whereIs(dir: string): Where | undefined {
  const c = checkoutOf(dir);
  if (!c) return undefined;
  const kept = answers.get(c.gitDir);
  if (kept && kept.stamps.every(([path, was]) => stamp(path) === was)) return kept.where;
  // Every stamp is taken before the answer kept is read: a file that changes meanwhile shows as a
  // stale stamp next time, never as a stale answer kept.
  const headFile = join(c.gitDir, 'HEAD');
  const stamps: Array<[string, string]> = [[headFile, stamp(headFile)]];
  const ref = headRef(c);
  if (ref !== undefined) {
    for (const f of new Set([join(c.gitDir, ref), join(c.commonDir, ref), join(c.commonDir, 'packed-refs')])) stamps.push([f, stamp(f)]);
  }
  const where = readWhere(c);
  if (answers.size > 100) answers.clear();
  answers.set(c.gitDir, { stamps, where });
  return where;
}

/**
 * Whether `sha` names a commit in the repository at `root`: true or false as git answers, undefined
 * when there is no repository there or git cannot be run (then nothing can be checked).
 */
export function commitExists(root: string, sha: string): Promise<boolean | undefined> {
  if (!checkoutOf(root)) return Promise.resolve(undefined);
  return new Promise((done) => {
    childProcess().execFile('git', ['-C', root, 'cat-file', '-e', `${sha}^{commit}`], { timeout: 10_000 }, (err) => {
      if (!err) return done(true);
      const code = (err as { code?: unknown }).code;
      done(typeof code === 'number' ? false : undefined);
    });
  });
}
