/**
 * The store of a workspace with linked sources: the workspace's own store, with every call first
 * bringing in what the sources' owners changed, and every write taking its changes back to them
 * before it commits (docs/links.md). Everything above the store (ops, profiles, the adapters) is
 * unaware of links; this is why a write from any surface reaches the source.
 *
 * A check costs one stat for a single-file source. A folder source is watched in long-lived
 * processes (links/watch.ts) and scanned file by file otherwise (a CLI command).
 */
import { existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import type { Context } from '../core/context.js';
import { nowIso } from '../core/context.js';
import type { LinkKind, LinkRow } from '../core/link-port.js';
import { newUlid } from '../core/model/ids.js';
import { systemClock, type Clock, type Store, type StoreStatus, type Tx } from '../core/ports.js';
import { refuseOverlap } from './conflicts.js';
import { applyPull } from './pull.js';
import { pushChanges, type LiveSource } from './push.js';
import { SourceBusy, SourceMoved, type LinkSource } from './source.js';
import { diffStamps, stampOf } from './stamps.js';
import { FolderWatch } from './watch.js';

export interface LinkConfig {
  /** The source of a link: its kind's reader and writer over the path. */
  open(kind: LinkKind, path: string): LinkSource;
  /** Sources a profile's host configuration names (CASTLE_DB_PATH, DEVPLANNER_WORKSPACE): linked once they exist. */
  auto?: ReadonlyArray<{ kind: LinkKind; path: string; writable: boolean }>;
  /** Watch folder sources for changes (servers); without it every check scans them. */
  watch?: boolean;
  clock?: Clock;
  /** Problems a sync met that do not stop the call (a file it could not read). */
  onWarning?(message: string): void;
}

interface Live extends LiveSource {
  /** Stamps loaded from the workspace (false until the first check of this process). */
  loaded: boolean;
  watch: FolderWatch | undefined;
  scannedAt: number;
}

type Pulled = Map<string, Set<string>>;

/** Whether a noted path that is not one of the source's files is a folder that came or went (a new lane, a removed project). */
function isFolderChange(abs: string, rel: string, known: ReadonlyMap<string, string>): boolean {
  if (statSync(abs, { throwIfNoEntry: false })?.isDirectory()) return true;
  const prefix = `${rel}/`;
  for (const f of known.keys()) if (f.startsWith(prefix)) return true;
  return false;
}
const NOTHING: Pulled = new Map();
/** A watched folder source is still scanned in full this often, in case a notice was missed. */
const FULL_SCAN_MS = 5_000;
/** A change-feed poll scans an unwatched folder source at most this often. */
const POLL_SCAN_MS = 1_000;

export class LinkedStore implements Store {
  readonly location: string;
  readonly #inner: Store;
  readonly #config: LinkConfig;
  readonly #clock: Clock;
  #rows: { token: string; rows: LinkRow[] } | undefined;
  readonly #live = new Map<string, Live>();
  /** Syncs run one at a time in a process; a call that finds one running waits for it, then checks. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(inner: Store, config: LinkConfig) {
    this.#inner = inner;
    this.#config = config;
    this.#clock = config.clock ?? systemClock;
    this.location = inner.location;
  }

  /** The workspace's own store, under the links. */
  get inner(): Store {
    return this.#inner;
  }

  async read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    await this.sync();
    return this.#inner.read(fn);
  }

  async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    let pulled = await this.sync();
    for (let attempt = 0; ; attempt++) {
      await this.#registerAuto(true);
      const lives = [...this.#live.values()];
      if (!lives.length) return this.#inner.write(fn);
      let pushed: Awaited<ReturnType<typeof pushChanges>> | undefined;
      let pushing = false;
      try {
        const result = await this.#inner.write(async (tx) => {
          const since = await tx.lastSeq();
          const r = await fn(tx);
          await refuseOverlap(tx, since, pulled, () => lives.map((l) => l.source.label).join(', '));
          pushing = true;
          pushed = await pushChanges(tx, this.#ctx('cairn'), lives, since);
          return r;
        });
        for (const [id, files] of pushed ?? []) {
          const live = this.#live.get(id);
          if (live) for (const [f, s] of files) s === undefined ? live.stamps.delete(f) : live.stamps.set(f, s);
        }
        return result;
      } catch (err) {
        // A write-back that began and did not commit may have written some files: read them again.
        if (pushing) for (const l of lives) l.loaded = false;
        if (!(err instanceof SourceMoved) || attempt >= 4) throw err;
        const again = await this.sync();
        pulled = new Map([...pulled, ...again]);
      }
    }
  }

  changeToken(): Promise<string> {
    // A live view polls this: changes made outside Cairn enter the feed through the sync.
    return this.sync({ poll: true }).then(() => this.#inner.changeToken());
  }

  projectsToken(): Promise<string> {
    return this.#inner.projectsToken();
  }

  onCommit(listener: () => void): () => void {
    return this.#inner.onCommit?.(listener) ?? (() => undefined);
  }

  observePoolWaits(listener: (seconds: number) => void): () => void {
    return this.#inner.observePoolWaits?.(listener) ?? (() => undefined);
  }

  forgetLinks(): boolean {
    this.#rows = undefined;
    return true;
  }

  status(): Promise<StoreStatus> {
    return this.#inner.status?.() ?? Promise.reject(new Error('the workspace store reports no status'));
  }

  async close(): Promise<void> {
    for (const l of this.#live.values()) l.watch?.close();
    this.#live.clear();
    await this.#inner.close();
  }

  /** Brings in what changed in every source; the fields it changed per task. */
  async sync(opts: { poll?: boolean } = {}): Promise<Pulled> {
    // A workspace without links (most) pays one token read per call: nothing is queued.
    if (!this.#live.size && !this.#config.auto?.length && this.#rows && this.#rows.token === (await this.#inner.projectsToken())) return NOTHING;
    const run = this.#queue.then(() => this.#syncAll(opts.poll === true));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #ctx(actor: string): Context {
    return { store: this.#inner, clock: this.#clock, actor };
  }

  async #syncAll(poll: boolean): Promise<Pulled> {
    await this.#loadRows();
    await this.#registerAuto(false);
    if (!this.#live.size) return NOTHING;
    let out: Pulled | undefined;
    for (const live of this.#live.values()) {
      const pulled = await this.#syncOne(live, poll);
      if (pulled.size) out = new Map([...(out ?? []), ...pulled]);
    }
    return out ?? NOTHING;
  }

  /** The link rows, read again whenever a project changed here or anything was committed elsewhere. */
  async #loadRows(): Promise<void> {
    const token = await this.#inner.projectsToken();
    if (this.#rows?.token === token) return;
    const rows = await this.#inner.read((tx) => tx.links.list());
    this.#rows = { token, rows };
    for (const [id, l] of this.#live) {
      if (!rows.some((r) => r.id === id)) {
        l.watch?.close();
        this.#live.delete(id);
      }
    }
    for (const row of rows) {
      const l = this.#live.get(row.id);
      if (l) l.row = row;
      else this.#live.set(row.id, this.#makeLive(row));
    }
  }

  #makeLive(row: LinkRow): Live {
    const source = this.#config.open(row.kind, row.path);
    return { row, source, stamps: new Map(), loaded: false, watch: this.#config.watch && source.isFolder ? new FolderWatch() : undefined, scannedAt: 0 };
  }

  /**
   * Links the host's configuration names, once their source exists: on a sync when it has files,
   * on a write when its path exists (a first project in an empty DevPlanner workspace makes its folder).
   */
  async #registerAuto(writing: boolean): Promise<void> {
    const pending = (this.#config.auto ?? []).filter((a) => !this.#rows?.rows.some((r) => r.path === a.path));
    for (const a of pending) {
      if (!existsSync(a.path)) continue;
      if (!writing && this.#config.open(a.kind, a.path).scan().size === 0) continue;
      const row: LinkRow = { id: newUlid(), kind: a.kind, path: a.path, writable: a.writable, state: { warnings: [], lost: [] }, createdAt: nowIso(this.#ctx('cairn')) };
      await this.#inner.write(async (tx) => {
        if (!(await tx.links.list()).some((r) => r.path === a.path)) await tx.links.insert(row);
      });
      this.#rows = undefined;
      await this.#loadRows();
    }
  }

  async #syncOne(live: Live, poll: boolean): Promise<Pulled> {
    if (!live.loaded) {
      live.stamps = await this.#inner.read((tx) => tx.links.files(live.row.id));
      live.loaded = true;
      live.scannedAt = 0;
    }
    const moved = await this.#check(live, poll);
    if (!moved) return NOTHING;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#pull(live, moved);
      } catch (err) {
        if (!(err instanceof SourceBusy) || attempt >= 1) {
          if (err instanceof SourceBusy) {
            this.#config.onWarning?.(`${live.source.label}: ${err.message}; kept what was read before`);
            return NOTHING;
          }
          throw err;
        }
      }
    }
  }

  /** What moved in the source since this process last read it, or undefined. */
  async #check(live: Live, poll: boolean): Promise<{ changed: string[]; removed: string[]; now: Map<string, string> } | undefined> {
    const { source } = live;
    const now = Date.now();
    if (live.watch?.working && live.scannedAt && now - live.scannedAt < FULL_SCAN_MS) {
      await live.watch.settle();
      const noted = live.watch.take();
      if (!noted.size) return undefined;
      const next = new Map(live.stamps);
      let structural = false;
      for (const p of noted) {
        const f = relative(source.path, p);
        if (source.tracks(f)) {
          const s = stampOf(p);
          if (s === undefined) next.delete(f);
          else next.set(f, s);
        } else if (isFolderChange(p, f, live.stamps)) structural = true;
      }
      // Other files (a temporary file of an atomic save, the owner's own data) are not the source's.
      if (!structural) return this.#moved(live, next);
    } else if (source.isFolder && poll && now - live.scannedAt < POLL_SCAN_MS) {
      return undefined;
    }
    const scanned = source.scan();
    live.scannedAt = now;
    live.watch?.take();
    live.watch?.follow(source.folders(scanned.keys()));
    return this.#moved(live, scanned);
  }

  #moved(live: Live, now: Map<string, string>) {
    const d = diffStamps(live.stamps, now);
    return d.changed.length || d.removed.length ? { ...d, now } : undefined;
  }

  async #pull(live: Live, moved: { changed: string[]; removed: string[]; now: Map<string, string> }): Promise<Pulled> {
    const first = live.stamps.size === 0;
    const read = await live.source.read(first ? undefined : [...moved.changed, ...moved.removed]);
    for (const w of read.warnings) this.#config.onWarning?.(`${live.source.label}: ${w}`);
    const outcome = await this.#inner.write(async (tx) => {
      const result = await applyPull(tx, this.#ctx(live.row.kind), live.row, live.source, read);
      const put = new Map(moved.changed.map((f) => [f, moved.now.get(f)!]));
      if (put.size) await tx.links.putFiles(live.row.id, put);
      if (moved.removed.length) await tx.links.removeFiles(live.row.id, moved.removed);
      return result;
    });
    live.stamps = moved.now;
    return outcome.changed;
  }
}
