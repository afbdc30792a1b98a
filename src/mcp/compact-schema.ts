/**
 * Trims generated JSON Schema before it is advertised: the tool list is paid for in every prompt,
 * so drop what a model gains nothing from ($schema, a regex spelling out a declared format,
 * descriptions that only repeat the enum, a union's array branch repeating its item's description).
 * For Cairn's own tools also `minLength: 1` (`nonEmpty`): that an id or a title is not empty goes
 * without saying, and the server, which validates every argument itself, still refuses an empty one
 * with VALIDATION_ERROR. Profiles keep it: they advertise a seed's schema as the seed wrote it.
 */
type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function trimEnumDescription(n: Node): void {
  if (!Array.isArray(n.enum) || typeof n.description !== 'string') return;
  const spelled = n.enum.map(String).join('|');
  const rest = n.description.replace(spelled, '').replace(/[\s:(),-]+$/, '').trim();
  if (rest) n.description = rest;
  else delete n.description;
}

export function compactJsonSchema<T>(schema: T, opts: { nonEmpty?: boolean } = {}): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isNode(v)) return v;
    const n: Node = {};
    for (const [k, x] of Object.entries(v)) if (k !== '$schema') n[k] = walk(x);
    if (typeof n.format === 'string') delete n.pattern;
    if (opts.nonEmpty && n.type === 'string' && n.minLength === 1) delete n.minLength;
    // zod's int() bounds every integer by the safe range: no caller comes near it, and it costs each one 12 tokens.
    if (opts.nonEmpty && n.maximum === Number.MAX_SAFE_INTEGER) delete n.maximum;
    if (opts.nonEmpty && n.minimum === Number.MIN_SAFE_INTEGER) delete n.minimum;
    trimEnumDescription(n);
    // `T | T[]` unions: the array's items say the same as the scalar branch.
    if (Array.isArray(n.anyOf)) {
      for (const b of n.anyOf) if (isNode(b) && b.type === 'array' && isNode(b.items)) delete b.items.description;
    }
    return n;
  };
  return walk(schema) as T;
}
