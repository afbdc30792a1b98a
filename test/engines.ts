/**
 * Which test files run on which engine. Every file runs on SQLite; these run on PostgreSQL too,
 * from the same source (helpers/engine.ts switches the workspaces), so the two engines are held to
 * one list of behaviours rather than two copies of it.
 */
export const POSTGRES_SUITE = [
  'test/core/**/*.test.ts',
  'test/props/**/*.test.ts',
  'test/mcp/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/profiles/**/*.test.ts',
  'test/handoff/**/*.test.ts',
  'test/transfer/**/*.test.ts',
  'test/agent/**/*.test.ts',
  'test/cli/cli-workflow.test.ts',
  'test/cli/cli-claims.test.ts',
  'test/cli/cli-secrets.test.ts',
  'test/cli/cli-db-schema.test.ts',
  'test/multiprocess/replicas.test.ts',
  'test/multiprocess/rolling-upgrade.test.ts',
  'test/multiprocess/coordination.test.ts',
];

/** Files about SQLite itself (its file format, WAL, pragmas, FTS5, native binding), or that open the file directly. */
export const SQLITE_ONLY = [
  'test/core/checkpointer.test.ts',
  'test/core/migrations.test.ts',
  'test/core/native-binding.test.ts',
  'test/core/search-upkeep.test.ts',
  'test/core/workspace-files.test.ts',
  'test/core/limit-literals.test.ts',
  'test/props/search-excerpts.test.ts',
  'test/handoff/remote-exactly-once.test.ts',
];

/** Files in the folders above whose subject is the protocol, the SDK or schemas, not the store: once is enough. */
export const ENGINE_FREE = [
  'test/core/git-facts.test.ts',
  'test/props/path-patterns.test.ts',
  'test/mcp/inspector.test.ts',
  'test/mcp/sdk-internals.test.ts',
  'test/mcp/zod-failure-patch.test.ts',
  'test/mcp/units.test.ts',
  'test/mcp/docs.test.ts',
  'test/http/conformance.test.ts',
  'test/remote/http-codes.test.ts',
  'test/web/enums.test.ts',
  'test/rules/resolved-literals.test.ts',
];

/** The seeds' profile suites, run again with the profile server in remote mode (test/mcp/helpers.ts). */
export const REMOTE_SUITE = ['test/profiles/castle.test.ts', 'test/profiles/tx.test.ts', 'test/profiles/devplanner-mcp.test.ts'];
