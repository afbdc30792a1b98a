#!/usr/bin/env node
// The `cairn` command: runs the built CLI (dist/ is made by `npm run build`, also run on install by `prepare`).
import module from 'node:module';

// Node 22.1+ caches compiled modules between runs (a no-op on Node 20), which shortens every start.
module.enableCompileCache?.();
const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv);
