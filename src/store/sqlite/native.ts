/**
 * Picks the SQLite binding for this Node. better-sqlite3 12 (node::ObjectWrap) aborts on Node
 * 24.19+ when a statement is garbage-collected after the environment is torn down, and 13
 * (Node-API) does not, but 13 needs Node >= 22. So Node 20 loads 12, and newer Nodes load 13,
 * installed as the optional dependency `better-sqlite3-napi` (npm skips it on Node 20).
 *
 * 12's JavaScript is imported statically, so the bundles (scripts/bundle-mcp.js) carry it and a
 * CLI command or the MCP server does not load its dozen CommonJS files one by one. Node 20 caches
 * no compiled module, so loading them would add to every start. A bundle built where 13 is
 * installed carries 13's too (napi-js.ts). The addon is loaded by path (see `addonLoader`).
 */
import type BetterSqlite3 from 'better-sqlite3';
import BetterSqlite3V12 from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundledNapi } from './napi-js.js';

const require = createRequire(import.meta.url);
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * The addon where better-sqlite3's build puts it, loaded on the first open and handed to every
 * Database. Left to itself, better-sqlite3 finds it with the `bindings` package, which reads a
 * stack trace and tries a dozen paths (and, bundled, would look beside the bundle). A load error
 * (a build for another Node) still surfaces at the open, where `bindings` would raise it.
 */
function addonLoader(file: string): () => object {
  let addon: object | undefined;
  return () => (addon ??= require(file) as object);
}

/** better-sqlite3's Database, opened with the addon `addon` gives unless the caller names one. */
function withAddon(Base: typeof BetterSqlite3, addon: () => object): typeof BetterSqlite3 {
  class Database extends Base {
    constructor(file?: string | Buffer, options?: BetterSqlite3.Options) {
      // Typed as a path only, but better-sqlite3 takes the loaded addon too.
      const nativeBinding: unknown = options?.nativeBinding ?? addon();
      super(file, { ...options, nativeBinding } as BetterSqlite3.Options);
    }
  }
  return Database as typeof BetterSqlite3;
}

/** The C library this process runs on, as 13's lib/binding.js tells them apart; undefined when unsure. */
function linuxLibc(): 'musl' | 'glibc' | undefined {
  try {
    const maps = readFileSync('/proc/self/maps', 'latin1');
    if (/\/ld-musl-[^/\s]*\.so/.test(maps)) return 'musl';
    if (/\/(?:ld-linux[^/\s]*|libc)\.so\.\d/.test(maps)) return 'glibc';
  } catch {
    // No /proc: let the package decide.
  }
  return undefined;
}

/**
 * The addon in the package at `dir`: compiled at install (build/Release), or 13's prebuilt one for
 * this platform. Undefined when neither is there, or the platform is unclear: the package as
 * installed then finds its addon itself.
 */
function addonPath(dir: string): string | undefined {
  const built = join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(built)) return built;
  const libc = process.platform === 'linux' ? linuxLibc() : undefined;
  if (process.platform === 'linux' && !libc) return undefined;
  const prebuilt = join(dir, 'prebuilds', `${libc === 'musl' ? 'linuxmusl' : process.platform}-${process.arch}.node`);
  return existsSync(prebuilt) ? prebuilt : undefined;
}

/** One installed binding package: its Database class (given `bundled`, its JavaScript as imported here), name and version. */
function binding(name: string, bundled?: typeof BetterSqlite3): { Database: typeof BetterSqlite3; binding: string; path: string } {
  const packageJson = require.resolve(`${name}/package.json`);
  const { version } = require(packageJson) as { version: string };
  const addon = addonPath(dirname(packageJson));
  const Database = addon ? withAddon(bundled ?? (require(name) as typeof BetterSqlite3), addonLoader(addon)) : (require(name) as typeof BetterSqlite3);
  return { Database, binding: `better-sqlite3@${version}`, path: require.resolve(name) };
}

function load(): { Database: typeof BetterSqlite3; binding: string; path: string } {
  if (NODE_MAJOR >= 22) {
    try {
      return binding('better-sqlite3-napi', bundledNapi);
    } catch {
      // Not installed (node_modules from a Node 20 install): fall back to 12, which works until exit.
    }
  }
  return binding('better-sqlite3', BetterSqlite3V12);
}

const loaded = load();
/** The better-sqlite3 Database class for this runtime. */
export const Database: typeof BetterSqlite3 = loaded.Database;
/** Which binding was loaded, e.g. "better-sqlite3@13.2.0" (for diagnostics and tests). */
export const SQLITE_BINDING: string = loaded.binding;
/** Where that binding's module lives, for worker threads that open their own connection. */
export const SQLITE_MODULE_PATH: string = loaded.path;
export type SqliteDatabase = BetterSqlite3.Database;
