/** Vite build of the board: Preact with the automatic JSX runtime, emitted into dist/web for `cairn serve` to ship at `/`. */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // One small bundle: the page is ~20 KB of JS gzipped, splitting would only add round trips.
    modulePreload: false,
    reportCompressedSize: false,
  },
});
