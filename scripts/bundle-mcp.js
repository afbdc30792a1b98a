// Bundles the MCP stdio server into single ESM files so `cairn mcp` starts fast (module loading dominated start-up).
// dist/mcp/main.js (what `cairn mcp` imports) and dist/mcp/stdio-entry.js are replaced by self-contained bundles;
// better-sqlite3 stays external (native addon). Run after tsc: node scripts/bundle-mcp.js
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
await build({
  absWorkingDir: root,
  entryPoints: { 'mcp/main': 'src/mcp/main.ts', 'mcp/stdio-entry': 'src/mcp/stdio-entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  chunkNames: 'mcp/chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'better-sqlite3-napi'],
  // Full minification: compiling the source is the largest start-up cost, and it scales with its size.
  minify: true,
  // No source map: the package ships dist/ without src/, so a map would point at files that are not there.
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [
    {
      name: 'cairn-mcp-shims',
      setup(b) {
        b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: join(root, 'scripts', 'mcp-shims.js') }));
      },
    },
    // A failed safeParse kept each request's data alive until the next full GC (read p99); see the file.
    zodFailurePatch({ onMissing: (path) => console.warn(`bundle-mcp: zod's safeParse failure changed (${path}); check whether scripts/zod-failure-patch.js is still needed`) }),
  ],
  // Some bundled CommonJS code calls require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __cairnCreateRequire } from 'node:module'; const require = __cairnCreateRequire(import.meta.url);" },
});

// The CLI: one bundle whose commands' modules are chunks loaded on demand, so `cairn --version` or a
// read command parses only what it runs (module loading was most of a CLI start). Chunks sit at the
// same depth as dist/cli/main.js, so its relative imports (../mcp/main.js, loaded by `cairn mcp`)
// resolve the same from either. The MCP and HTTP servers stay out: the CLI imports them by path.
rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'better-sqlite3-napi'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cairnCreateRequire } from 'node:module'; const require = __cairnCreateRequire(import.meta.url);" },
});
