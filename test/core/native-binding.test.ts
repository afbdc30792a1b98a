/** Node 24.19+ aborts at exit with better-sqlite3 12's node::ObjectWrap statements, so Node >= 22 must load 13 (Node-API). */
import { describe, expect, it } from 'vitest';
import { SQLITE_BINDING } from '../../src/store/sqlite/native.js';

describe('SQLite binding', () => {
  it('is better-sqlite3 13 on Node >= 22 and 12 on Node 20', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(SQLITE_BINDING).toMatch(major >= 22 ? /^better-sqlite3@13\./ : /^better-sqlite3@12\./);
  });
});
