/**
 * Picks the SQLite binding for this Node. better-sqlite3 12 (node::ObjectWrap) aborts on Node
 * 24.19+ when a statement is garbage-collected after the environment is torn down, and 13
 * (Node-API) does not, but 13 needs Node >= 22. So Node 20 loads 12, and newer Nodes load 13,
 * installed as the optional dependency `better-sqlite3-napi` (npm skips it on Node 20).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

function load(): { Database: typeof BetterSqlite3; binding: string; path: string } {
  const names = NODE_MAJOR >= 22 ? ['better-sqlite3-napi', 'better-sqlite3'] : ['better-sqlite3'];
  for (const [i, name] of names.entries()) {
    try {
      const Database = require(name) as typeof BetterSqlite3;
      const { version } = require(`${name}/package.json`) as { version: string };
      return { Database, binding: `better-sqlite3@${version}`, path: require.resolve(name) };
    } catch (err) {
      // Not installed (node_modules from a Node 20 install): fall back to 12, which works until exit.
      if (i === names.length - 1) throw err;
    }
  }
  throw new Error('unreachable');
}

const loaded = load();
/** The better-sqlite3 Database class for this runtime. */
export const Database: typeof BetterSqlite3 = loaded.Database;
/** Which binding was loaded, e.g. "better-sqlite3@13.2.0" (for diagnostics and tests). */
export const SQLITE_BINDING: string = loaded.binding;
/** Where that binding's module lives, for worker threads that open their own connection. */
export const SQLITE_MODULE_PATH: string = loaded.path;
export type SqliteDatabase = BetterSqlite3.Database;
