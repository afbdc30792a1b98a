/**
 * A Store that becomes real once its promise resolves. `cairn mcp` answers `initialize` while the
 * SQLite driver and query builder are still loading (they are a separate bundle chunk), which keeps
 * spawn → initialize short; the first tool call simply waits for the store.
 */
import type { Store } from '../core/ports.js';

export function lazyStore(ready: Promise<Store>, location: string): Store {
  let real: Store | undefined;
  void ready.then((s) => (real = s), () => undefined);
  const get = async (): Promise<Store> => real ?? ready;
  return {
    location,
    read: async (fn) => (await get()).read(fn),
    write: async (fn) => (await get()).write(fn),
    changeToken: async () => (await get()).changeToken(),
    projectsToken: async () => (await get()).projectsToken(),
    close: async () => (await get()).close(),
  };
}
