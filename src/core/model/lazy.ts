/**
 * A schema built on its first use. zod builds each schema eagerly, and a `.min()` or `.describe()`
 * clones it. Built eagerly, every op's inputs and outputs would be paid for at the start of a `cairn`
 * command that reads only one op's input, a large share of a read command's time. Composite schemas
 * are declared through this, and ops take theirs as thunks (ops/op.ts), so a command builds only
 * what it uses.
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
