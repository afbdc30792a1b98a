/**
 * The repository registry file (`repos.json`): one entry per workspace inside a repository — its
 * root, database, package name, git remote slug and projects. Writers take a lock file and replace
 * the file atomically, so processes registering at once lose no entry; a lock left by a process
 * that died is taken over.
 */
import { tryLock, type Unlock } from '../lock-file.js';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CairnError } from '../core/errors.js';
import type { Store } from '../core/ports.js';
import { namesOf, type RegisteredProject, type RegisteredRepository, type RepositoryRegistry } from '../core/registry-port.js';
import { nameMatch } from '../core/rules/repo-names.js';
import { repoIdentity } from '../core/places/repo-identity.js';
import { projectRootOf, realish, repositoryOfDb } from '../core/places/repo-paths.js';
import { isPostgresUrl } from '../workspace.js';

interface RegistryFile {
  version: 1;
  repositories: RegisteredRepository[];
}

/** An unchanged entry is written again only this often, to keep `seen` roughly current without a write per start. */
const RESEEN_MS = 24 * 3600_000;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const same = (a: RegisteredRepository, b: RegisteredRepository): boolean => JSON.stringify({ ...a, seen: '' }) === JSON.stringify({ ...b, seen: '' });

export class FileRegistry implements RepositoryRegistry {
  constructor(
    readonly location: string,
    private readonly open: (db: string) => Store,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<RegisteredRepository[]> {
    return this.#read();
  }

  /** What the workspace of `store` registers as; undefined for one outside a repository, on PostgreSQL, or not created yet. */
  async describe(store: Store): Promise<RegisteredRepository | undefined> {
    if (isPostgresUrl(store.location)) return undefined;
    const db = realish(store.location);
    const root = repositoryOfDb(db);
    if (!root || !existsSync(db)) return undefined;
    const identity = repoIdentity(root);
    const rows = await store.read((tx) => tx.listProjects(false));
    const projects: RegisteredProject[] = rows.map((p) => {
      const at = projectRootOf(p.root, root);
      const pkg = at && realish(at) !== root ? repoIdentity(at).package : undefined;
      return { key: p.key, aliases: [...p.aliases], root: at, ...(pkg && pkg !== identity.package ? { package: pkg } : {}) };
    });
    return { root, db, ...identity, projects, seen: this.now().toISOString() };
  }

  /** Registers (or updates) the workspace of `store`; writes only when something changed or the entry is a day old. */
  async note(store: Store): Promise<void> {
    const entry = await this.describe(store);
    if (!entry) return;
    const old = this.#read().find((r) => r.db === entry.db);
    if (old && same(old, entry) && this.now().getTime() - Date.parse(old.seen) < RESEEN_MS) return;
    this.#update((list) => [...list.filter((r) => r.db !== entry.db), entry]);
  }

  /** Reads every registered workspace again; drops those whose database is gone. */
  async refresh(): Promise<RegisteredRepository[]> {
    const fresh = new Map<string, RegisteredRepository | null>();
    for (const r of this.#read()) {
      if (!existsSync(r.db)) {
        fresh.set(r.db, null);
        continue;
      }
      const store = this.open(r.db);
      try {
        fresh.set(r.db, (await this.describe(store)) ?? null);
      } catch {
        fresh.set(r.db, r); // unreadable now (locked, migrating): keep what is known
      } finally {
        await store.close().catch(() => undefined);
      }
    }
    return this.#update((list) =>
      list.flatMap((r) => {
        const f = fresh.get(r.db);
        return f === undefined ? [r] : f ? [f] : [];
      }),
    );
  }

  /** Removes the entries a path (root or database) or a name (key, alias, package, remote slug) names; answers them. */
  forget(ref: string): RegisteredRepository[] {
    const path = realish(resolve(ref));
    const hit = (r: RegisteredRepository) => r.root === path || r.db === path || !!nameMatch(ref, namesOf(r));
    const gone = this.#read().filter(hit);
    if (!gone.length) {
      throw new CairnError('NO_WORKSPACE', `No registered repository is "${ref}" (a root folder, a workspace database, or a project key, alias, package name or remote slug). Nothing was changed.`, {
        suggestions: ['cairn repos  (lists the registered repositories)'],
        details: { wanted: ref, registry: this.location },
      });
    }
    this.#update((list) => list.filter((r) => !hit(r)));
    return gone;
  }

  #read(): RegisteredRepository[] {
    let text: string;
    try {
      text = readFileSync(this.location, 'utf8');
    } catch {
      return [];
    }
    try {
      const file = JSON.parse(text) as Partial<RegistryFile>;
      return Array.isArray(file.repositories) ? file.repositories.filter((r) => r && typeof r.db === 'string' && typeof r.root === 'string' && Array.isArray(r.projects)) : [];
    } catch {
      return []; // a damaged file is rewritten whole by the next registration
    }
  }

  /** Applies `change` to the current list under the lock and replaces the file; answers the new list. */
  #update(change: (list: RegisteredRepository[]) => RegisteredRepository[]): RegisteredRepository[] {
    mkdirSync(dirname(this.location), { recursive: true });
    const unlock = this.#lock();
    try {
      const next = change(this.#read()).sort((a, b) => a.root.localeCompare(b.root));
      const tmp = `${this.location}.${process.pid}.tmp`;
      const file: RegistryFile = { version: 1, repositories: next };
      const fd = openSync(tmp, 'w', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(file, null, 2)}\n`);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.location);
      return next;
    } finally {
      unlock();
    }
  }

  /** The writers' lock: waits up to 2 s for a live holder, takes over one whose process is gone. */
  #lock(): Unlock {
    const file = `${this.location}.lock`;
    const deadline = Date.now() + 2000;
    for (;;) {
      const got = tryLock(file);
      if ('unlock' in got) return got.unlock;
      if (Date.now() > deadline) {
        throw new CairnError('BUSY', `The repository registry ${this.location} stayed locked by process ${got.holder} for 2 s. Nothing was changed.`, {
          suggestions: [`Retry; if process ${got.holder} is not cairn, remove ${file}`],
        });
      }
      sleep(10);
    }
  }
}
