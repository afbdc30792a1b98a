#!/usr/bin/env node
// The `cairn` command. It runs dist/cli/cairn.cjs, the whole CLI in one file (scripts/bundle-mcp.js),
// with a V8 code cache: compiling the CLI's code, and compiling each function as a command first calls
// it, was most of a read command's time. The cache is made after the first command has run, so it holds
// what commands compile, not only the top level, which is all that Node's own compile cache keeps of a
// script. It lives per user under ~/.cache/cairn/code-cache, one file per command word, bundle, install and Node;
// V8 rejects a cache another Node or other flags made, and then it is made again. CAIRN_CODE_CACHE=0
// turns it off.
// `cairn mcp` runs dist/mcp/cairn-mcp.cjs the same way, whose cache is made once the first session has
// answered a tool call. Without the bundles (dist/ built without esbuild), the unbundled CLI runs.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const bundle = path.join(__dirname, '..', 'dist', 'cli', 'cairn.cjs');
const mcpBundle = path.join(__dirname, '..', 'dist', 'mcp', 'cairn-mcp.cjs');
/** Another bundle's or install's caches go once they are a day old; a live one is made again on its next run. */
const STALE_MS = 24 * 3600 * 1000;
/** At most this many files, the oldest going first. */
const KEEP = 64;

/** Global options that take a value (src/cli/main.ts), skipped to find the command word. */
const VALUE_OPTIONS = new Set(['--db', '--as', '--remote']);

/**
 * The command word, which names the cache: a cache holds the functions its first run compiled, so
 * `cairn init`'s does not stand in for `cairn ready`'s. A wrong guess costs only speed.
 */
function commandWord(args) {
  for (let i = 0; i < args.length; i++) {
    if (VALUE_OPTIONS.has(args[i])) i++;
    else if (!args[i].startsWith('-')) return /^[a-z-]{1,20}$/.test(args[i]) ? args[i] : 'other';
  }
  return 'none';
}

/**
 * Node's options, when any are given: V8 rejects a cache made under other flags, so runs with and
 * without them would otherwise replace each other's cache on every start. FNV-1a, to load no module.
 */
function flagsKey() {
  const flags = `${process.execArgv.join(' ')}|${process.env.NODE_OPTIONS ?? ''}`;
  return flags === '|' ? '' : `-f${fnv(flags)}`;
}

/** FNV-1a of a string, in hex. */
function fnv(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

/** Where a bundle's cached `what` goes (under ~/.cache/cairn/code-cache, named for the bundle and install); undefined when caching is off. */
function cacheFile(source, what, file = bundle) {
  if (process.env.CAIRN_CODE_CACHE === '0') return undefined;
  const id = /^\/\/ cairn-bundle ([0-9a-f]+)\n/.exec(source)?.[1];
  // $HOME is what os.homedir() answers on POSIX; loading node:os for it cost 0.3 ms of every start.
  const home = process.env.HOME || require('node:os').homedir();
  const base = process.env.XDG_CACHE_HOME || (home && path.join(home, '.cache'));
  if (!id || !base) return undefined;
  // The install's path too: V8 keeps the script's file name in the cached code, so two installs of
  // one bundle sharing a cache would print each other's paths in stack traces.
  return path.join(base, 'cairn', 'code-cache', `${id}-${fnv(file)}-${what}`);
}

/** A command's code cache: V8 takes only one made by this Node, on this CPU architecture, under the same flags. */
function codeCacheFile(source, word, file) {
  return cacheFile(source, `${process.version}-${process.arch}-${word}${flagsKey()}.bin`, file);
}

/** Writes the cache (another process may be writing it too: each renames its own whole file into place); failures only cost speed. */
function save(file, data) {
  try {
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, file);
    const ours = `${path.basename(file).split('-').slice(0, 2).join('-')}-`;
    const files = fs
      .readdirSync(dir)
      .map((name) => ({ name, at: fs.statSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    const now = Date.now();
    for (const [i, { name, at }] of files.entries()) {
      if (i >= KEEP || (!name.startsWith(ours) && now - at > STALE_MS)) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // A read-only or missing home: run without a cache.
  }
}

/**
 * One buffer for reading both the bundle and its code cache. A fresh megabyte buffer per read costs a
 * page fault per 4 KB touched, about 11 µs each on a virtual machine that charges for first touches
 * (docs/decisions.md, "What is left of the start-up target"); reusing the pages the bundle's read
 * touched saved `cairn ready` about 240 of its 4,900 faults. Reserving more than a read needs costs
 * nothing until touched.
 */
const SCRATCH_BYTES = 4 * 1024 * 1024;
let scratch;

/** A whole file, in `scratch`: valid until the next read. */
function readWhole(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (!scratch || scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, SCRATCH_BYTES));
    let n = 0;
    while (n < size) {
      const got = fs.readSync(fd, scratch, n, size - n, n);
      if (got === 0) break;
      n += got;
    }
    return scratch.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** Compiles and runs a CommonJS bundle through its code cache; its exports, and `saved()` to call once it has run what its cache should hold. */
function loadBundle(file, source, word) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const cache = codeCacheFile(source, word, file);
  let cached;
  if (cache) {
    try {
      // V8 has read it by the time the Script exists, so the next read may reuse the buffer.
      cached = readWhole(cache);
    } catch {
      // No cache yet.
    }
  }
  // The bundle is already a module wrapper (scripts/bundle-mcp.js writeHashed): compiled as read.
  const script = new vm.Script(source, { filename: file, cachedData: cached });
  // Read once per process: a server keeps running, and need not keep the buffer's pages.
  scratch = undefined;
  const m = { exports: {} };
  script.runInThisContext().call(m.exports, m.exports, Module.createRequire(file), m, file, path.dirname(file));
  const ran = () => {
    if (cache && (!cached || script.cachedDataRejected)) save(cache, script.createCachedData());
  };
  return { exports: m.exports, ran };
}

function runBundle(source, word) {
  const { exports: cli, ran } = loadBundle(bundle, source, word);
  // A script has no import() of its own (src/cli/load-module.ts): the servers and adapters are ES modules.
  cli.useImporter((url) => import(url));
  return cli.main(process.argv).then((code) => {
    process.exitCode = code;
    ran();
  });
}

/** Reads a bundle; undefined when dist/ was built without them. */
function readBundle(file) {
  try {
    // ASCII (scripts/bundle-mcp.js checks), so Latin-1 reads it the same, without UTF-8 decoding.
    const bytes = readWhole(file);
    return bytes.toString('latin1', 0, bytes.length);
  } catch {
    return undefined;
  }
}

/**
 * The tools/list entries an earlier `cairn mcp` of this bundle built (src/mcp/tool-list.ts), and a
 * `save()` that writes them back once a session has added any. JSON, whatever the Node.
 */
function toolEntries(source) {
  const file = cacheFile(source, 'tool-entries.json', mcpBundle);
  let saved = {};
  if (file) {
    try {
      saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      // None yet, or damaged: built again.
    }
  }
  let added = false;
  return {
    entries: {
      get: (key) => (Object.hasOwn(saved, key) ? saved[key] : undefined),
      set: (key, entry) => {
        saved[key] = entry;
        added = true;
      },
    },
    save: () => {
      if (file && added) save(file, JSON.stringify(saved));
      added = false;
    },
  };
}

/**
 * `cairn mcp` with only its documented options (src/cli/commands/mcp-fast.ts): answers the host's
 * initialize (src/mcp/early-initialize.ts) before reading the server's bundle, then runs the server from
 * it. False for any other command line, which the CLI then parses, with its messages and exit codes.
 */
function runMcp() {
  let first;
  try {
    first = require(path.join(__dirname, '..', 'dist', 'mcp', 'cairn-mcp-early.cjs'));
  } catch {
    return false;
  }
  const opts = first.plainMcpOptions(process.argv.slice(2));
  // Only looked for here: reading its megabyte (and copying it into a string) waits until initialize is answered.
  if (!opts || !fs.existsSync(mcpBundle)) return false;
  const early = first.answersEarly(opts, process.env) ? first.answerInitializeEarly(first.EARLY_WAIT_MS) : undefined;
  const json = process.argv.includes('--json');
  const serve = () => {
    const source = readBundle(mcpBundle);
    if (source === undefined) {
      process.exitCode = 1;
      process.stderr.write(`cairn mcp: cannot read ${mcpBundle}; reinstall Cairn (npm install, or npm run build in a clone).\n`);
      return;
    }
    const { exports: mcp, ran } = loadBundle(mcpBundle, source, 'mcp');
    const tools = toolEntries(source);
    const onFirstCall = () => {
      ran();
      tools.save();
    };
    return mcp.startMcpStdio({ ...opts, onFirstCall, toolEntries: tools.entries }, process.env, early).catch((err) => {
      process.exitCode = mcp.reportError(err, json);
    });
  };
  // The bundle is compiled once initialize is answered (or none came), so the host waits only for Node.
  (early ?? Promise.resolve()).then(serve);
  return true;
}

// Node 22.1+ caches compiled modules between runs (a no-op on Node 20): the ones outside the bundle,
// such as the servers' and better-sqlite3 13's.
require('node:module').enableCompileCache?.();
const args = process.argv.slice(2);
const word = commandWord(args);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // How hosts and scripts check an install: the line commander prints (program-base.ts; a test compares
  // the two), without reading the CLI's bundle.
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (word !== 'mcp' || !runMcp()) {
  const source = readBundle(bundle);
  if (source !== undefined) runBundle(source, word);
  else {
    import('../dist/cli/main.js').then(async ({ main }) => {
      process.exitCode = await main(process.argv);
    });
  }
}
