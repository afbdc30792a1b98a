// node:crypto and node:child_process, loaded when first used rather than when a module that may use
// them is imported. Loading the two (with the stream and socket modules they pull in) cost a CLI read
// about 9 ms of its start (paired runs), and a read uses neither: test/cli/start-up-paths.test.ts
// holds the read commands to that.

/** node:crypto, loaded on first call. */
export const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');

/** node:child_process, loaded on first call. */
export const childProcess = (): typeof import('node:child_process') => process.getBuiltinModule('node:child_process');
