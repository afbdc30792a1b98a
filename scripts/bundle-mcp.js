// Bundles the MCP stdio server and the CLI into ESM files so `cairn mcp` and every `cairn` command start fast (module loading dominated start-up).
// dist/mcp/main.js, dist/mcp/stdio-start.js (what `cairn mcp` imports) and dist/mcp/stdio-entry.js are replaced by self-contained bundles;
// better-sqlite3 13 (the Node-API build, optional) is bundled when installed here (napiPlugin). Run after tsc: node scripts/bundle-mcp.js
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkHotPathPatch } from './sdk-hot-path-patch.js';
import { zodFailurePatch } from './zod-failure-patch.js';

// esbuild is a dev dependency: without it (an install that omits dev dependencies) the unbundled
// tsc output in dist/mcp still works, only slower to start.
const esbuild = await import('esbuild').catch(() => undefined);
if (!esbuild) {
  console.warn('bundle-mcp: esbuild is not installed; cairn mcp runs unbundled (slower start-up)');
  process.exit(0);
}
const { build } = esbuild;
const root = fileURLToPath(new URL('..', import.meta.url));
// Chunk names carry content hashes; clear the old ones so dist/ does not collect them.
rmSync(join(root, 'dist', 'mcp', 'chunks'), { recursive: true, force: true });
/**
 * better-sqlite3 13's JavaScript goes into the bundles when it is installed here (an install on
 * Node 22+), in place of src/store/sqlite/napi-js.ts; otherwise that module stays undefined and 13,
 * if present where Cairn runs, loads from node_modules. Its addon is loaded by path either way
 * (store/sqlite/native.ts).
 */
const napiInstalled = (() => {
  try {
    createRequire(import.meta.url).resolve('better-sqlite3-napi');
    return true;
  } catch {
    return false;
  }
})();
const napiPlugin = {
  name: 'cairn-napi-js',
  setup(b) {
    if (!napiInstalled) return;
    b.onLoad({ filter: /[\\/]store[\\/]sqlite[\\/]napi-js\.[jt]s$/ }, () => ({
      contents: "export { default as bundledNapi } from 'better-sqlite3-napi';",
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/** What both bundles share: ESM for Node 20, the native SQLite addon left out. */
const common = {
  absWorkingDir: root,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // better-sqlite3's JavaScript is bundled (store/sqlite/native.ts); 13's only when installed here (napiPlugin).
  external: napiInstalled ? [] : ['better-sqlite3-napi'],
  // Full minification: compiling the source is the largest start-up cost, and it scales with its size.
  minify: true,
  // No source map: the package ships dist/ without src/, so a map would point at files that are not there.
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // jsonc-parser's main file is UMD, whose require('./impl/…') calls a bundler cannot follow; its ESM build can.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // Some bundled CommonJS code calls require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __cairnCreateRequire } from 'node:module'; const require = __cairnCreateRequire(import.meta.url);" },
};
/** The MCP SDK's _shims, replaced to keep Ajv out of start-up (see the file). */
const mcpShims = {
  name: 'cairn-mcp-shims',
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: join(root, 'scripts', 'mcp-shims.js') }));
  },
};
// A failed safeParse kept each request's data alive until the next full GC (read p99); see the file.
const zodPatch = zodFailurePatch({ onMissing: (path) => console.warn(`bundle-mcp: zod's safeParse failure changed (${path}); check whether scripts/zod-failure-patch.js is still needed`) });
// The SDK's per-message zod checks trimmed where the answer is known (see the file).
const sdkPatch = sdkHotPathPatch();
await build({
  ...common,
  // stdio-start: what `cairn mcp` loads (by path) to answer initialize before the server loads.
  entryPoints: { 'mcp/main': 'src/mcp/main.ts', 'mcp/stdio-entry': 'src/mcp/stdio-entry.ts', 'mcp/stdio-start': 'src/mcp/stdio-start.ts' },
  chunkNames: 'mcp/chunks/[name]-[hash]',
  plugins: [napiPlugin, mcpShims, zodPatch, sdkPatch.plugin],
});
sdkPatch.check('dist/mcp');

// The CLI: one CommonJS file, dist/cli/cairn.cjs, that bin/cairn.js runs through a V8 code cache (see
// there). CommonJS because only a classic script takes a code cache made after it ran, which holds the
// functions a command compiled as it ran, not just the top level; so one file rather than chunks (esbuild
// splits ESM only), whose modules still evaluate on first import. The MCP and HTTP servers stay out: the
// CLI imports them by path (load-module.ts), relative to dist/cli/ as from dist/cli/main.js.
rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });
const cli = await build({
  ...common,
  entryPoints: { 'cli/cairn': 'src/cli/main.ts' },
  outExtension: { '.js': '.cjs' },
  splitting: false,
  format: 'cjs',
  write: false,
  // import.meta.url of every module is the bundle's own URL, at the same depth as dist/cli/main.js.
  define: { 'import.meta.url': '__cairnBundleUrl' },
  banner: { js: "var __cairnBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [
    napiPlugin,
    {
      name: 'cairn-cli-shims',
      setup(b) {
        // Commander's child_process, loaded only if it spawns (see the file).
        b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]commander[\\/]/.test(args.importer) ? { path: join(root, 'scripts', 'lazy-child-process.cjs') } : undefined));
      },
    },
  ],
});
writeHashed(cli.outputFiles);

// `cairn mcp`: the stdio server and the CLI's reading of its command line as one CommonJS file,
// dist/mcp/cairn-mcp.cjs, that bin/cairn.js runs through a code cache of its own, made once the first
// session has served a tool call (so it holds the functions serving tools/list and a call compiled).
// Composed here, not in src/: the CLI and the MCP server are adapters that do not import each other.
// Same depth as dist/cli/, so import.meta.url-relative paths resolve as from the CLI bundle.
const mcpCli = await build({
  ...common,
  stdin: {
    contents: ["export { reportError } from './src/cli/report-error.ts';", "export { startMcpStdio } from './src/mcp/stdio-start.ts';"].join('\n'),
    resolveDir: root,
    sourcefile: 'cairn-mcp-entry.ts',
    loader: 'ts',
  },
  outfile: 'dist/mcp/cairn-mcp.cjs',
  outdir: undefined,
  splitting: false,
  format: 'cjs',
  write: false,
  define: { 'import.meta.url': '__cairnBundleUrl' },
  banner: { js: "var __cairnBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [napiPlugin, mcpShims, zodPatch, sdkPatch.plugin],
});
sdkPatch.check('dist/mcp/cairn-mcp.cjs');
writeHashed(mcpCli.outputFiles, { escapeRegExps: true });

// What bin/cairn.js loads before that bundle: the reading of `cairn mcp`'s command line and the early
// answer to initialize (src/mcp/early-initialize.ts), so a host's initialize is answered before the
// server's bundle is read and compiled. Small, and loaded with require (no code cache of its own).
await build({
  ...common,
  stdin: {
    contents: ["export { plainMcpOptions } from './src/cli/commands/mcp-fast.ts';", "export { answerInitializeEarly, answersEarly, EARLY_WAIT_MS } from './src/mcp/early-initialize.ts';"].join('\n'),
    resolveDir: root,
    sourcefile: 'cairn-mcp-early-entry.ts',
    loader: 'ts',
  },
  outfile: 'dist/mcp/cairn-mcp-early.cjs',
  outdir: undefined,
  splitting: false,
  format: 'cjs',
  define: { 'import.meta.url': '__cairnBundleUrl' },
  banner: { js: "var __cairnBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [],
});

/**
 * Writes a CommonJS bundle whose first line names its content hash (the code cache is keyed by it, since
 * V8 checks only a cached script's length). bin/cairn.js reads it as Latin-1, twice as fast as UTF-8 for
 * this size (and V8 then keeps a one-byte string), so it must be ASCII. esbuild escapes non-ASCII
 * characters except in regular expression literals and template literals, whose raw text it keeps. With
 * `escapeRegExps`, a character inside a regular expression literal (a profile's /…/g) is written as
 * \uXXXX, which means the same there; one anywhere else still fails the build.
 * The code comes already inside CommonJS's module wrapper, so bin/cairn.js compiles the text as read:
 * wrapping it there made a second 1 MB string that V8 copied again before compiling (1.8% of a
 * `cairn ready`, paired runs). Only bin/cairn.js runs these files; `require` would not call the function.
 */
function writeHashed(outputFiles, { escapeRegExps = false } = {}) {
  for (const file of outputFiles) {
    let text = file.text;
    if (escapeRegExps) text = text.replace(/[^\x00-\x7f]/g, (ch, at) => (inRegExpLiteral(text, at) ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : ch));
    const at = text.search(/[^\x00-\x7f]/);
    if (at >= 0) throw new Error(`bundle-mcp: ${file.path} must be ASCII; a template literal holds a non-ASCII character near: ${text.slice(Math.max(0, at - 60), at + 20)}`);
    const wrapped = `(function (exports, require, module, __filename, __dirname) { ${text}\n});`;
    const hash = createHash('sha256').update(wrapped).digest('hex').slice(0, 16);
    writeFileSync(file.path, `// cairn-bundle ${hash}\n${wrapped}`);
  }
}

/** Whether `at` is inside a one-line regular expression literal: an opening / after an operator or bracket, with no quote, backtick or newline between. */
function inRegExpLiteral(text, at) {
  const open = /(?:^|[(,=:[!&|?{};])\/(?:[^/\\\n`'"]|\\.)*$/.exec(text.slice(Math.max(0, at - 200), at));
  return open !== null && /^[^/\n`'"]*\/[dgimsuvy]*[.,);\]}]/.test(text.slice(at, at + 200));
}
