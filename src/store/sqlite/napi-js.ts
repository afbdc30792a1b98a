/**
 * better-sqlite3 13's JavaScript, when a bundle carries it; undefined in the unbundled build. The
 * bundler (scripts/bundle-mcp.js) replaces this module with 13's own entry when the optional
 * dependency is installed where the bundle is built, so Node 22+ does not load its dozen CommonJS
 * files one by one at every start, which costs a few milliseconds. Without it, native.ts requires
 * 13 from node_modules.
 */
import type BetterSqlite3 from 'better-sqlite3';

export const bundledNapi: typeof BetterSqlite3 | undefined = undefined;
