/**
 * Change notices for a folder source in a long-lived process (a server, an agent's MCP server):
 * one inotify watch per folder the source is made of, each event noting the path it names. A check
 * then stats only those paths instead of every file. A watch that fails (no inotify, a full watch
 * table, a network file system that sends nothing) turns itself off and the caller scans instead.
 *
 * Freshness: a write to a file queues its inotify event before the write returns, so by the time
 * a request that follows the write is read, the event is ready too. `settle()` lets the event loop
 * deliver it (one turn) before the notes are taken.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export class FolderWatch {
  readonly #watchers = new Map<string, FSWatcher>();
  #noted = new Set<string>();
  #broken = false;

  /** False once any watch failed: notes may be missing, so every check must scan. */
  get working(): boolean {
    return !this.#broken;
  }

  /** Watches exactly these folders (absolute paths), closing watches of folders no longer listed. */
  follow(dirs: Iterable<string>): void {
    if (this.#broken) return;
    const wanted = new Set(dirs);
    for (const [dir, w] of this.#watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.#watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.#watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          // No name: the event cannot say what moved, so the folder itself is noted (the check rescans it).
          this.#noted.add(name ? join(dir, name.toString()) : dir);
        });
        w.on('error', () => this.#fail());
        this.#watchers.set(dir, w);
      } catch {
        // A folder removed since the scan listed it is noted by its parent's watch; anything else turns watching off.
        this.#noted.add(dir);
      }
    }
  }

  #fail(): void {
    this.#broken = true;
    this.close();
  }

  /** Lets pending events arrive (one turn of the event loop). */
  settle(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }

  /** The paths noted since the last call, and forgets them. */
  take(): Set<string> {
    const noted = this.#noted;
    this.#noted = new Set();
    return noted;
  }

  close(): void {
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
  }
}
