/**
 * The names a repository answers to (seed 003's dependency ids): its projects' keys and aliases,
 * its manifest's package name (`@acme/core`) and its git remote's slug (`acme/core-lib`). A remote
 * URL in any of git's spellings reduces to the same slug, so an agent may pass whichever it has.
 */

/** What one registered repository (or one project root) is known by. */
export interface RepoNames {
  keys: readonly string[];
  aliases: readonly string[];
  package?: string | undefined;
  remote?: string | undefined;
}

/**
 * `owner/name` of a git remote, or of a slug already: `git@github.com:acme/core-lib.git`,
 * `https://github.com/acme/core-lib`, `ssh://git@host:22/acme/core-lib.git`, `github.com/acme/core-lib`
 * and `acme/core-lib` all give `acme/core-lib` (lower-cased: hosts compare them so). Undefined for
 * what cannot be a slug (one word, a scoped package name).
 */
export function remoteSlug(url: string): string | undefined {
  let s = url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '');
  if (!s || s.startsWith('@')) return undefined;
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?[^/]+\//i, ''); // scheme://user@host[:port]/
  s = s.replace(/^[^@/\s]+@[^:/\s]+:/, ''); // user@host:path (scp-like)
  const parts = s.split('/').filter(Boolean);
  if (parts.length < 2) return undefined;
  // host/owner/name without a scheme: the host has a dot, owners never do on the big forges.
  const tail = parts.length > 2 && parts[0]!.includes('.') ? parts.slice(1) : parts;
  return tail.slice(-2).join('/').toLowerCase();
}

/** How `ref` names a repository: by a project key or alias (which one), by its package, by its remote slug, or not at all. */
export function nameMatch(ref: string, names: RepoNames): 'key' | 'alias' | 'package' | 'remote' | undefined {
  const r = ref.trim();
  const lower = r.toLowerCase();
  if (names.keys.some((k) => k.toLowerCase() === lower)) return 'key';
  if (names.aliases.some((a) => a.toLowerCase() === lower)) return 'alias';
  if (names.package && names.package.toLowerCase() === lower) return 'package';
  const slug = remoteSlug(r);
  if (slug && names.remote && names.remote === slug) return 'remote';
  return undefined;
}

/** The names to show for a repository in a list or an error: its package, else its slug, else its keys. */
export function displayNames(names: RepoNames): string[] {
  return [...new Set([...(names.package ? [names.package] : []), ...(names.remote ? [names.remote] : []), ...names.keys, ...names.aliases])];
}
