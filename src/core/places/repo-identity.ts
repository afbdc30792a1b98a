/**
 * What a repository folder says about itself on disk: the `name` in its `package.json` and the
 * slug of its git remote (`origin`, else the first one), read from `.git/config` without running
 * git. Both are optional; a folder that is not there, or not readable, has neither.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { remoteSlug } from '../rules/repo-names.js';

export interface RepoIdentity {
  package?: string;
  remote?: string;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function packageName(root: string): string | undefined {
  const text = readText(join(root, 'package.json'));
  if (!text) return undefined;
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' && name.trim() ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The git config of a work tree: `.git/config`, or for a linked worktree or submodule (`.git` is a file) its common dir's. */
function gitConfigOf(folder: string): string | undefined {
  // A project rooted in a monorepo's subfolder shares the repository's remote.
  let root = resolve(folder);
  while (!existsSync(join(root, '.git'))) {
    if (dirname(root) === root) return undefined;
    root = dirname(root);
  }
  const dotGit = join(root, '.git');
  let gitDir = dotGit;
  if (!statSync(dotGit).isDirectory()) {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '')?.[1]?.trim();
    if (!pointer) return undefined;
    gitDir = isAbsolute(pointer) ? pointer : resolve(root, pointer);
    const common = readText(join(gitDir, 'commondir'))?.trim();
    if (common) gitDir = isAbsolute(common) ? common : resolve(gitDir, common);
  }
  return readText(join(gitDir, 'config'));
}

function remoteOf(root: string): string | undefined {
  const config = gitConfigOf(root);
  if (!config) return undefined;
  const urls = new Map<string, string>();
  let section: string | undefined;
  for (const line of config.split(/\r?\n/)) {
    const head = /^\s*\[remote\s+"([^"]+)"\s*\]/.exec(line);
    if (head) section = head[1];
    else if (/^\s*\[/.test(line)) section = undefined;
    else if (section && !urls.has(section)) {
      const url = /^\s*url\s*=\s*(.+?)\s*$/.exec(line)?.[1];
      if (url) urls.set(section, url);
    }
  }
  const url = urls.get('origin') ?? urls.values().next().value;
  return url ? remoteSlug(url) : undefined;
}

/** The package name and remote slug of the repository at `root` (each when it has one). */
export function repoIdentity(root: string): RepoIdentity {
  try {
    const pkg = packageName(root);
    const remote = remoteOf(root);
    return { ...(pkg ? { package: pkg } : {}), ...(remote ? { remote } : {}) };
  } catch {
    return {};
  }
}
