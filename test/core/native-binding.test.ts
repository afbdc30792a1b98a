/** Node 24.19+ aborts at exit with better-sqlite3 12's node::ObjectWrap statements, so Node >= 22 must load 13 (Node-API). */
import { describe, expect, it } from 'vitest';
import { SQLITE_BINDING } from '../../src/store/sqlite/native.js';
import { nativeLoadError } from '../../src/store/sqlite/open.js';

describe('SQLite binding', () => {
  it('is better-sqlite3 13 on Node >= 22 and 12 on Node 20', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(SQLITE_BINDING).toMatch(major >= 22 ? /^better-sqlite3@13\./ : /^better-sqlite3@12\./);
  });

  it('a native module built for another Node.js is explained with its fix, not reported as a bug', () => {
    // The message Node gives when node_modules were installed under another Node version.
    const mismatch = Object.assign(
      new Error(
        "The module '/x/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 137. This version of Node.js requires\nNODE_MODULE_VERSION 115.",
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const e = nativeLoadError(mismatch)!;
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toContain(process.version);
    expect(e.message).not.toContain('bug');
    expect(e.suggestions.join(' ')).toContain('npm rebuild');
    expect(nativeLoadError(new Error('SQLITE_CANTOPEN: unable to open database file'))).toBeUndefined();
  });
});
