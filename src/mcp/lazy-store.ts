/**
 * A Store that becomes real once its promise resolves. `cairn mcp` answers `initialize` while the
 * SQLite driver and query builder are still loading (they are a separate bundle chunk), which keeps
 * spawn → initialize short; the first tool call simply waits for the store.
 */
import type { Store } from '../core/ports.js';

export function lazyStore(ready: Promise<Store>, location: string): Store {
  let real: Store | undefined;
  void ready.then(
    (s) => (real = s),
    () => undefined,
  );
  const get = async (): Promise<Store> => real ?? ready;
  return {
    location,
    read: async (fn) => (await get()).read(fn),
    write: async (fn) => (await get()).write(fn),
    changeToken: async () => (await get()).changeToken(),
    projectsToken: async () => (await get()).projectsToken(),
    // Called after a read has resolved the store (core/services/links.ts).
    forgetLinks: () => real?.forgetLinks?.() ?? false,
    close: async () => (await get()).close(),
  };
}

/**
 * The store of a workspace that could not be opened (another application's file, a damaged one):
 * every call answers that error, so each tool call gets it instead of waiting forever.
 */
export function failedStore(err: unknown, location: string): Store {
  const fail = async (): Promise<never> => {
    throw err;
  };
  return { location, read: fail, write: fail, changeToken: fail, projectsToken: fail, close: async () => undefined };
}
