/**
 * Which workspace `cairn mcp` serves. --db, CAIRN_DB, a profile's variable (TX_DB, …) or a `.cairn/`
 * in or above the working directory decide at start. A host that starts the server elsewhere ($HOME
 * or /, as VS Code, Cursor and Claude Desktop often do) leaves the choice open until the client's MCP
 * roots arrive: the first root with a `.cairn/` in or above it decides. With none, every tool answers
 * NO_WORKSPACE naming `cairn init` and `--db`, and nothing is created — never a database in $HOME.
 */
import { CairnError } from '../core/errors.js';
import type { Store } from '../core/ports.js';

/** NO_WORKSPACE for a server that found none: where it looked, and the two ways to fix it. */
export function noWorkspaceError(cwd: string, roots: readonly string[]): CairnError {
  const where = roots.length ? `, nor in or above the client's roots (${roots.join(', ')})` : ', and the client sent no MCP roots to look in';
  return new CairnError('NO_WORKSPACE', `No Cairn workspace for this server: no .cairn/ folder in ${cwd} (where the host started it) or any parent${where}. Nothing was read or changed.`, {
    suggestions: [
      'Run `cairn init` in the repository (it creates .cairn/ there), then restart the server',
      'Start the server with --db /absolute/path/.cairn/cairn.db (or CAIRN_DB): `cairn mcp-config` prints the host entry with absolute paths',
    ],
    details: { cwd, roots: [...roots] },
  });
}

/** A Store that refuses everything with the same NO_WORKSPACE. */
function noWorkspaceStore(err: CairnError, location: string): Store {
  const refuse = async (): Promise<never> => {
    throw err;
  };
  return { location, read: refuse, write: refuse, changeToken: async () => '0', projectsToken: async () => '0', close: async () => undefined };
}

/** Finds the workspace a root belongs to (a `.cairn/` in or above it), if any. */
export type RootFinder = (root: string) => { store: Store; path: string } | undefined;

/**
 * The store a server is handed before its workspace is known: calls wait for the decision, then go
 * to the workspace (or are refused with NO_WORKSPACE). Decided once; later root changes move the
 * default project (scope.ts), not the workspace.
 */
export class WorkspaceChoice {
  readonly #cwd: string;
  readonly #log: (message: string) => void;
  #settle!: (s: Store | undefined) => void;
  #settled = false;
  #chosen: Store | undefined;
  #fallback: Store | undefined;
  #roots: string[] | undefined;
  #finder: RootFinder | undefined;
  /** The workspace's store once decided; undefined when there is none. */
  readonly ready: Promise<Store | undefined>;
  /** What to hand the server: waits for the decision. */
  readonly store: Store;

  constructor(cwd: string, log: (message: string) => void) {
    this.#cwd = cwd;
    this.#log = log;
    this.ready = new Promise((resolve) => (this.#settle = resolve));
    const get = async (): Promise<Store> => this.#chosen ?? (await this.ready) ?? this.#none();
    const self = this;
    this.store = {
      get location() {
        return self.#chosen?.location ?? cwd;
      },
      read: async (fn) => (await get()).read(fn),
      write: async (fn) => (await get()).write(fn),
      changeToken: async () => (await get()).changeToken(),
      projectsToken: async () => (await get()).projectsToken(),
      forgetLinks: () => self.#chosen?.forgetLinks?.() ?? false,
      close: async () => {
        this.abandon();
        await (this.#chosen ?? this.#fallback)?.close();
      },
    };
  }

  #none(): Store {
    return (this.#fallback ??= noWorkspaceStore(noWorkspaceError(this.#cwd, this.#roots ?? []), this.#cwd));
  }

  #decide(s: Store | undefined): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#chosen = s;
    this.#settle(s);
  }

  /** The workspace was found at start (flag, variable, working directory). */
  use(store: Store): void {
    this.#decide(store);
  }

  /** Nothing found at start: decide from the client's roots, once they (or their absence) are known. */
  fromRoots(finder: RootFinder): void {
    this.#finder = finder;
    this.#try();
  }

  /** The client's roots as paths; undefined when it offers none (no capability, a 2026 client, a failed roots/list). */
  roots(paths: string[] | undefined): void {
    this.#roots ??= paths ?? [];
    this.#try();
  }

  /** Shutting down, or giving up: whatever is undecided has no workspace. */
  abandon(): void {
    this.#decide(undefined);
  }

  #try(): void {
    if (this.#settled || !this.#finder || !this.#roots) return;
    for (const root of this.#roots) {
      const found = this.#finder(root);
      if (found) {
        this.#log(`serving ${found.path} (found from the client's root ${root})`);
        return this.#decide(found.store);
      }
    }
    this.#log(`no workspace: no .cairn/ in ${this.#cwd} or above${this.#roots.length ? ` nor in the client's roots (${this.#roots.join(', ')})` : ' and no client roots'}; tools answer NO_WORKSPACE`);
    this.#decide(undefined);
  }
}
