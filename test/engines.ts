/**
 * Which test files run on which engine. Every file runs on SQLite; these run on PostgreSQL too,
 * from the same source (helpers/engine.ts switches the workspaces), so the two engines are held to
 * one list of behaviours rather than two copies of it.
 */
export const POSTGRES_SUITE = [
  'test/core/**/*.test.ts',
  'test/props/**/*.test.ts',
  'test/mcp/tools.test.ts',
  'test/mcp/live.test.ts',
  'test/mcp/scope.test.ts',
  'test/http/rest.test.ts',
  'test/http/claims-rest.test.ts',
  'test/http/events.test.ts',
  'test/http/mcp-http.test.ts',
  'test/http/revocation.test.ts',
  'test/http/actor-identity.test.ts',
  'test/cli/cli-workflow.test.ts',
  'test/cli/cli-claims.test.ts',
  'test/multiprocess/replicas.test.ts',
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
];
