/** What every service call needs: the store, a clock, and who is acting (recorded in history). */
import type { Clock, Store } from './ports.js';
import type { RepositoryRegistry } from './registry-port.js';
import type { ForeignSqlite } from './services/import/sources.js';

export interface Context {
  store: Store;
  clock: Clock;
  /** The actor recorded in history and used for claims, e.g. "alice" or "agent:claude-1". */
  actor: string;
  /**
   * Whether this caller may take over or release another actor's live claim (claims.ts). Unset: yes
   * (a local user owns the workspace); a server sets it from the token (one that may act as anyone).
   */
  mayTakeOver?: boolean;
  /** Who acts on the actor's behalf (e.g. "token:ci" acting as "agent:x"), recorded beside it in history. */
  via?: string;
  /**
   * Opens another workspace's database (a handoff to another repository on this machine) with the
   * same engine. Entry points that can reach other workspaces set it; the caller closes the store.
   */
  openWorkspace?: (dbPath: string) => Store;
  /** The repositories this machine knows, for a target named by package or repo slug (used only with openWorkspace). */
  repositories?: RepositoryRegistry;
  /** The caller's working directory, against which a relative path it gives (a project root) is read; the CLI sets it. */
  cwd?: string;
  /**
   * The folder the caller works in (its first MCP root, else its working directory): a claim records
   * the git worktree, branch and HEAD found there (core/services/git-facts.ts). Unset: `cwd`.
   */
  workdir?: string;
  /** Whose idempotency keys this call's are (the token that sent it): another scope's keys never match. */
  keyScope?: string;
  /** How long an idempotency key is remembered (default 7 days; handoff keys are kept for good). */
  keyRetentionDays?: number;
  /** Opens another application's SQLite file read-only (an import of Castle's castle.db). Entry points that can read SQLite set it. */
  openForeignSqlite?: (file: string) => ForeignSqlite;
  /** Told how far a long operation (an import) has got, from 0 to 1: the CLI draws a progress bar. */
  onProgress?: (done: number) => void;
  /**
   * Where an export goes when the caller names no file: the CLI's standard output, written as it is
   * read so memory stays flat. Unset: the export is the answer itself.
   */
  exportSink?: (chunk: string) => void | Promise<void>;
}

export const nowIso = (ctx: Pick<Context, 'clock'>): string => ctx.clock.now().toISOString();
