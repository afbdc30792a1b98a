/**
 * A schema built on its first use. zod builds each schema eagerly, and a `.min()` or `.describe()`
 * clones it; a `cairn` command that reads one op's input paid for every op's inputs and outputs at
 * start (about a tenth of a read command's time). Composite schemas are declared through this, and
 * ops take theirs as thunks (ops/op.ts), so a command builds only what it uses.
 *
 * @example
 * export const Claim = lazy(() => z.object({ actor: z.string(), expiresAt: z.string() }));
 * export type Claim = z.infer<ReturnType<typeof Claim>>;
 * Claim().parse(value);
 */
export function lazy<T>(build: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= build());
}
