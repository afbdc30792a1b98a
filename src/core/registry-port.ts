/**
 * The repositories this machine knows (seed 003: "ADE owns the canonical mapping" from a dependency
 * id to its repository). Each local workspace registers itself when created or opened; a handoff or
 * a document lookup whose target names no project here asks the registry which repository it names.
 * src/registry/ keeps it in a file per user; entry points that may open other workspaces pass it.
 */
import type { RepoNames } from './rules/repo-names.js';

export interface RegisteredProject {
  key: string;
  aliases: string[];
  /** Absolute project root, when the project has one. */
  root: string | null;
  /** The package name at the project's root, when it differs from the repository's. */
  package?: string;
}

export interface RegisteredRepository {
  /** The folder holding `.cairn/`. */
  root: string;
  /** Its workspace database. */
  db: string;
  package?: string;
  remote?: string;
  projects: RegisteredProject[];
  /** When it was last registered or refreshed (ISO). */
  seen: string;
}

export interface RepositoryRegistry {
  /** Where the registry lives (a file path), for messages. */
  readonly location: string;
  /** Every registered repository, as last seen. */
  list(): Promise<RegisteredRepository[]>;
  /** Re-reads every registered workspace (projects, package, remote); drops the ones whose workspace is gone. */
  refresh(): Promise<RegisteredRepository[]>;
}

/** A repository's names (for matching): its projects' keys and aliases, its package and remote. */
export function namesOf(repo: RegisteredRepository): RepoNames & { packages: string[] } {
  const packages = repo.projects.map((p) => p.package).filter((p): p is string => !!p);
  return {
    keys: repo.projects.map((p) => p.key),
    aliases: repo.projects.flatMap((p) => p.aliases),
    ...(repo.package ? { package: repo.package } : {}),
    ...(repo.remote ? { remote: repo.remote } : {}),
    packages,
  };
}
