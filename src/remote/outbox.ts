/**
 * The outbox: writes recorded while the remote `cairn serve` is unreachable, one JSON file per
 * entry in `.cairn/outbox/`, written durably (temporary file, fsync, rename, fsync of the folder)
 * before the caller is told `persistedOffline: true`. Each entry carries its idempotency key (its
 * id), which the server records in the write's own transaction, so a delivery repeated after a crash
 * changes nothing: delivered exactly once. Delivered entries move to `delivered/`; entries the
 * server refuses move to `refused/` with its error — never dropped.
 */
import { tryLock, type Unlock } from '../lock-file.js';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { newUlid } from '../core/model/ids.js';

export interface OutboxEntry {
  /** Time-ordered id; also the idempotency key the server records. */
  id: string;
  op: string;
  args: Record<string, unknown>;
  /** The actor named explicitly (--as / CAIRN_ACTOR), sent as X-Cairn-Actor; else the token's own name acts. */
  actor?: string;
  /** Where it was meant to go. */
  url: string;
  createdAt: string;
  /** Delivery attempts so far, and the last reason it could not be delivered. */
  attempts: number;
  lastError?: string;
}

export interface DeliveredEntry extends OutboxEntry {
  deliveredAt: string;
  result: unknown;
}

export interface RefusedEntry extends OutboxEntry {
  refusedAt: string;
  error: { code: string; message: string; suggestions?: string[] };
}

const PENDING_RE = /^[0-9A-Z]{26}\.json$/;

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems cannot fsync a directory; the rename itself is still atomic.
  }
}

/** Writes `file` so that after a crash it is either absent or complete. */
function writeDurably(file: string, data: unknown): void {
  const dir = join(file, '..');
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  fsyncDir(dir);
}

export class Outbox {
  constructor(readonly dir: string) {}

  /**
   * Whether the read caches (projects.json, servers.json) may be written: only where the outbox's
   * folder or its parent (`.cairn/`, or what CAIRN_OUTBOX names) is already there. A read must not
   * create `.cairn/` in a folder that has none: that folder would then be taken for a workspace by
   * every later local command in or under it. A queued write still creates it: the write has to wait
   * somewhere.
   */
  #mayCache(): boolean {
    return existsSync(this.dir) || existsSync(dirname(this.dir));
  }

  #read<T>(file: string): T | undefined {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as T;
    } catch {
      return undefined; // delivered (moved) meanwhile by another process
    }
  }

  /**
   * Records a write durably and returns it (the caller answers persistedOffline: true). `id` is the
   * idempotency key the write was first sent with, if it was: the entry keeps it, so a first attempt
   * the server did receive (a timeout, a gateway's 504) is answered as a replay on delivery.
   */
  add(e: Omit<OutboxEntry, 'id' | 'createdAt' | 'attempts'>, id: string = newUlid()): OutboxEntry {
    mkdirSync(this.dir, { recursive: true });
    const entry: OutboxEntry = { id, createdAt: new Date().toISOString(), attempts: 0, ...e };
    writeDurably(join(this.dir, `${entry.id}.json`), entry);
    return entry;
  }

  /** Entries waiting for delivery, oldest first (corrupt files are not entries: see corrupt()). */
  pending(): OutboxEntry[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => PENDING_RE.test(f))
      .sort()
      .map((f) => this.#read<OutboxEntry>(join(this.dir, f)))
      .filter((e): e is OutboxEntry => !!e && !entryProblem(JSON.stringify(e), e.id));
  }

  /**
   * Entry files that cannot be read as entries (cut short by a full disk, edited by hand): reported by
   * `cairn outbox` and `cairn sync`, never skipped silently, and left in place for a person to fix.
   */
  corrupt(): Array<{ file: string; error: string }> {
    if (!existsSync(this.dir)) return [];
    const out: Array<{ file: string; error: string }> = [];
    for (const f of readdirSync(this.dir)
      .filter((f) => PENDING_RE.test(f))
      .sort()) {
      const file = join(this.dir, f);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue; // delivered (moved) meanwhile
      }
      const why = entryProblem(text, f.slice(0, -'.json'.length));
      if (why) out.push({ file, error: why });
    }
    return out;
  }

  /** The server's projects (keys and roots) as last listed: how an offline command still finds the project of its folder. */
  rememberProjects(url: string, projects: ReadonlyArray<{ key: string; root: string | null }>): void {
    if (!this.#mayCache()) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const file = join(this.dir, 'projects.json');
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify({ url, projects: projects.map((p) => ({ key: p.key, root: p.root })) })}\n`);
      renameSync(tmp, file);
    } catch {
      // A cache: a folder it cannot write only means no default project while offline.
    }
  }

  /**
   * Remembers that the server at `url` answered this workspace: a server that never has, when it
   * cannot be reached, is more likely a wrong address than one that is down (remote-runner.ts says so).
   */
  rememberAnswer(url: string): void {
    if (this.hasAnswered(url) || !this.#mayCache()) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const file = join(this.dir, 'servers.json');
      const known = this.#read<{ answered?: string[] }>(file)?.answered ?? [];
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify({ answered: [...known.filter((u) => u !== url), url] })}\n`);
      renameSync(tmp, file);
    } catch {
      // Advice only: a folder it cannot write only makes an offline message less specific.
    }
  }

  hasAnswered(url: string): boolean {
    const known = this.#read<{ answered?: unknown }>(join(this.dir, 'servers.json'))?.answered;
    return Array.isArray(known) && known.includes(url);
  }

  knownProjects(url: string): Array<{ key: string; root: string | null }> | undefined {
    const known = this.#read<{ url?: string; projects?: Array<{ key: string; root: string | null }> }>(join(this.dir, 'projects.json'));
    return known?.url === url && Array.isArray(known.projects) ? known.projects : undefined;
  }

  hasPending(): boolean {
    return existsSync(this.dir) && readdirSync(this.dir).some((f) => PENDING_RE.test(f));
  }

  refused(): RefusedEntry[] {
    const dir = join(this.dir, 'refused');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => PENDING_RE.test(f))
      .sort()
      .map((f) => this.#read<RefusedEntry>(join(dir, f)))
      .filter((e): e is RefusedEntry => !!e);
  }

  delivered(id: string): DeliveredEntry | undefined {
    return this.#read<DeliveredEntry>(join(this.dir, 'delivered', `${id}.json`));
  }

  /** Where an entry is now: pending, delivered (with the server's answer), refused (with its error), or unknown. */
  find(id: string): { state: 'pending'; entry: OutboxEntry } | { state: 'delivered'; entry: DeliveredEntry } | { state: 'refused'; entry: RefusedEntry } | undefined {
    const pending = this.#read<OutboxEntry>(join(this.dir, `${id}.json`));
    if (pending) return { state: 'pending', entry: pending };
    const done = this.delivered(id);
    if (done) return { state: 'delivered', entry: done };
    const refused = this.#read<RefusedEntry>(join(this.dir, 'refused', `${id}.json`));
    return refused ? { state: 'refused', entry: refused } : undefined;
  }

  /** The server took it: its answer is kept in delivered/, then the pending file goes (a crash between them only means a replay). */
  markDelivered(e: OutboxEntry, result: unknown): void {
    const dir = join(this.dir, 'delivered');
    mkdirSync(dir, { recursive: true });
    writeDurably(join(dir, `${e.id}.json`), { ...e, deliveredAt: new Date().toISOString(), result } satisfies DeliveredEntry);
    this.#remove(join(this.dir, `${e.id}.json`));
  }

  /** The server refused it (a deleted target, a bad argument): kept in refused/ with the error, never dropped. */
  markRefused(e: OutboxEntry, error: RefusedEntry['error']): void {
    const dir = join(this.dir, 'refused');
    mkdirSync(dir, { recursive: true });
    writeDurably(join(dir, `${e.id}.json`), { ...e, refusedAt: new Date().toISOString(), error } satisfies RefusedEntry);
    this.#remove(join(this.dir, `${e.id}.json`));
  }

  /** Not delivered this time (the server is still away): count the attempt. */
  noteAttempt(e: OutboxEntry, why: string): void {
    const file = join(this.dir, `${e.id}.json`);
    if (existsSync(file)) writeDurably(file, { ...e, attempts: e.attempts + 1, lastError: why });
  }

  /** Puts a refused entry back in the queue (after fixing what the server refused). */
  retry(id: string): boolean {
    const from = join(this.dir, 'refused', `${id}.json`);
    const e = this.#read<RefusedEntry>(from);
    if (!e) return false;
    const { refusedAt: _r, error: _e, ...entry } = e;
    writeDurably(join(this.dir, `${id}.json`), entry);
    this.#remove(from);
    return true;
  }

  #remove(file: string): void {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
    fsyncDir(join(file, '..'));
  }

  /**
   * Takes the delivery lock (one deliverer at a time per outbox, so entries go in order); a lock
   * left by a process that died (SIGKILL) is taken over. Undefined when another live process holds it.
   */
  lock(): Unlock | undefined {
    mkdirSync(this.dir, { recursive: true });
    const got = tryLock(join(this.dir, '.lock'));
    return 'unlock' in got ? got.unlock : undefined;
  }
}

/** The writes the outbox records when the server is away: an entry naming any other op is refused, never sent. */
export const OUTBOX_OPS: ReadonlySet<string> = new Set(['submit_handoff', 'create_task', 'add_comment', 'update_task', 'complete_task']);

/** What is wrong with an entry file's text, or undefined when it is a whole entry named `id`. */
function entryProblem(text: string, id: string): string | undefined {
  let e: Partial<OutboxEntry>;
  try {
    e = JSON.parse(text) as Partial<OutboxEntry>;
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  if (typeof e !== 'object' || e === null) return 'not an entry object';
  const missing = (['id', 'op', 'url'] as const).filter((k) => typeof e[k] !== 'string');
  if (typeof e.args !== 'object' || e.args === null) missing.push('args' as never);
  if (missing.length) return `missing ${missing.join(', ')}`;
  if (e.id !== id) return `its id ${e.id} is not its file name`;
  // A file edited (or planted) to name another op, purge_task say, is not delivered.
  if (!OUTBOX_OPS.has(e.op!)) return `its op "${e.op}" is not one the outbox records (${[...OUTBOX_OPS].join(', ')})`;
  return undefined;
}

/** `.cairn/outbox` of the nearest ancestor with `.cairn/`, else of the working directory; CAIRN_OUTBOX overrides. */
export function outboxDir(cwd: string, env: NodeJS.ProcessEnv, workspaceRoot: string | undefined): string {
  if (env.CAIRN_OUTBOX) return env.CAIRN_OUTBOX;
  return join(workspaceRoot ?? cwd, '.cairn', 'outbox');
}
