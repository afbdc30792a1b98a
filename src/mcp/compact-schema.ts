/**
 * Trims generated JSON Schema before it is advertised. The tool list is paid for in every prompt,
 * and a client such as the v1 SDK's compiles and runs every output schema on every call, so drop
 * what neither a model nor a client gains from.
 *
 * Every schema loses $schema, a regex spelling out a declared format, descriptions that only repeat
 * the enum, and a union's array branch repeating its item's description. Profiles stop there: they
 * advertise a seed's schema as the seed wrote it.
 *
 * Cairn's own tools are `lean`. The server parses every argument with the full zod schema and
 * refuses a bad one with VALIDATION_ERROR naming the field and the limit, so the advertised input
 * keeps what a model needs to write a good call, not every bound (decisions.md, "The advertised
 * schema is a guide").
 */
type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function trimEnumDescription(n: Node): void {
  if (!Array.isArray(n.enum) || typeof n.description !== 'string') return;
  const spelled = n.enum.map(String).join('|');
  const rest = n.description
    .replace(spelled, '')
    .replace(/[\s:(),-]+$/, '')
    .trim();
  if (rest) n.description = rest;
  else delete n.description;
}

const isEmptyDefault = (d: unknown) => d === false || d === '' || (Array.isArray(d) && d.length === 0) || (isNode(d) && Object.keys(d).length === 0);

/** Bounds no caller comes near: zod's int() safe range, and score's ±1e9. */
const isFarBound = (b: unknown) => typeof b === 'number' && Math.abs(b) >= 1e6;

/**
 * `T | T[]` becomes `T[]` (the server still takes a single value); `T | null` becomes `type: [T, "null"]`;
 * a union of objects told apart by a `const` (update_checklist's ops) becomes one object whose
 * discriminator is an enum: what each variant needs, the tool's description says.
 */
function simplifyUnion(n: Node): Node {
  const branches = (n.anyOf ?? n.oneOf) as unknown[] | undefined;
  if (!Array.isArray(branches) || !branches.every(isNode)) return n;
  const { anyOf: _a, oneOf: _o, ...rest } = n;
  if (branches.length === 2) {
    const arr = branches.find((b) => b.type === 'array');
    const nul = branches.find((b) => b.type === 'null');
    const other = branches.find((b) => b !== arr && b !== nul);
    if (arr && other) return { ...rest, ...arr };
    if (nul && other && typeof other.type === 'string') {
      const { description: _d, ...plain } = other;
      return { ...rest, ...plain, type: [other.type, 'null'] };
    }
  }
  const tag = discriminator(branches);
  if (!tag) return n;
  const properties: Node = {};
  for (const b of branches) for (const [k, s] of Object.entries(b.properties as Node)) if (k !== tag) properties[k] ??= s;
  const required = branches.map((b) => (b.required as string[] | undefined) ?? []).reduce((a, r) => a.filter((k) => r.includes(k)));
  return { ...rest, type: 'object', properties: { [tag]: { enum: branches.map((b) => (b.properties as Node)[tag] && ((b.properties as Node)[tag] as Node).const) }, ...properties }, required };
}

function discriminator(branches: Node[]): string | undefined {
  if (branches.length < 2 || !branches.every((b) => b.type === 'object' && isNode(b.properties))) return undefined;
  const first = Object.keys(branches[0]!.properties as Node);
  return first.find((k) => branches.every((b) => isNode((b.properties as Node)[k]) && ((b.properties as Node)[k] as Node).const !== undefined));
}

export function compactJsonSchema<T>(schema: T, opts: { lean?: boolean } = {}): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isNode(v)) return v;
    let n: Node = {};
    for (const [k, x] of Object.entries(v)) if (k !== '$schema') n[k] = walk(x);
    if (typeof n.format === 'string') delete n.pattern;
    trimEnumDescription(n);
    if (opts.lean) n = lean(n);
    // `T | T[]` unions: the array's items say the same as the scalar branch.
    if (Array.isArray(n.anyOf)) {
      for (const b of n.anyOf) if (isNode(b) && b.type === 'array' && isNode(b.items)) delete b.items.description;
    }
    return n;
  };
  return walk(schema) as T;
}

function lean(n: Node): Node {
  // That an id or a title is not empty goes without saying; the server refuses an empty one.
  if (n.type === 'string' && n.minLength === 1) delete n.minLength;
  delete n.maxLength;
  delete n.maxItems;
  if (isFarBound(n.maximum)) delete n.maximum;
  if (isFarBound(n.minimum)) delete n.minimum;
  // A count or an index is not negative; that needs no words.
  if (n.type === 'integer' && (n.minimum === 0 || n.minimum === 1)) delete n.minimum;
  if ('default' in n && isEmptyDefault(n.default)) delete n.default;
  if (Array.isArray(n.enum)) delete n.type;
  // An input or output object is closed by the server's own parse; saying so costs every object 28 bytes.
  if (n.additionalProperties === false) delete n.additionalProperties;
  n = simplifyUnion(n);
  // An item's description repeats its array's ("Task id, e.g. API-12" under blockedBy).
  if (n.type === 'array' && isNode(n.items)) delete n.items.description;
  return n;
}

/**
 * An advertised output: lean, without descriptions (the tool's description and input say what it
 * returns), and nested objects past the result's own fields reduced to their type. With `taskCore`,
 * a `task` field names only the fields every task has (DESIGN §4) and leaves the rest open: a write
 * answers the whole task, and get_task advertises its full shape.
 */
export function compactOutputSchema<T>(schema: T, opts: { taskCore?: boolean } = {}): T {
  const walk = (v: unknown, depth: number): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, depth));
    if (!isNode(v)) return v;
    if (depth > 2 && (v.type === 'object' || v.type === 'array' || v.anyOf)) return { type: typeOf(v) };
    let n: Node = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === '$schema' || k === 'description') continue;
      n[k] = k === 'properties' && isNode(x) ? Object.fromEntries(Object.entries(x).map(([p, s]) => [p, walk(s, depth + 1)])) : walk(x, depth);
    }
    n = lean(n);
    return n;
  };
  const out = walk(schema, 0) as Node;
  const props = isNode(out.properties) ? out.properties : undefined;
  if (opts.taskCore && props && isNode(props.task)) props.task = coreOf(props.task);
  return out as T;
}

/** The fields DESIGN §4 promises on every task a tool returns. */
export const TASK_CORE_FIELDS = ['id', 'project', 'title', 'status', 'statusCategory', 'priority', 'version', 'blockedBy', 'blocks', 'children', 'isReady', 'checklist'];

function coreOf(task: Node): Node {
  if (!isNode(task.properties)) return task;
  const { additionalProperties: _a, ...rest } = task;
  const properties = Object.fromEntries(TASK_CORE_FIELDS.filter((k) => k in (task.properties as Node)).map((k) => [k, (task.properties as Node)[k]]));
  const required = Array.isArray(task.required) ? task.required.filter((k) => TASK_CORE_FIELDS.includes(k)) : undefined;
  return { ...rest, properties, ...(required ? { required } : {}) };
}

function typeOf(s: Node): unknown {
  if (s.type !== undefined) return s.type;
  const branches = (s.anyOf ?? s.oneOf) as Node[] | undefined;
  if (!Array.isArray(branches)) return undefined;
  const types = [...new Set(branches.flatMap((b) => [typeOf(b)].flat()).filter((t) => t !== undefined))];
  return types.length === 1 ? types[0] : types;
}
