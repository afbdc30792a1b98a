/**
 * Text from the workspace made safe for a terminal: control characters (C0 but newline and tab,
 * DEL, C1) and bidi embeddings, overrides, isolates and marks are shown as escapes (`\x1b`,
 * `\u202e`), so a task title can neither drive the terminal (OSC 52 clipboard writes, clearing the
 * screen) nor reorder what the reader sees. Applied once to a view's input and to error text;
 * `--json` output is never passed through it.
 */

// \r rewrites the line in place, so it is escaped too; \n and \t are layout and stay.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One string with every terminal-active character shown as an escape. */
export function visibleText(s: string): string {
  return s.replace(UNSAFE, escapeChar);
}

/**
 * Each character UNSAFE matches as JSON.stringify writes it: \b, \f, \r or \u00XX for the C0
 * controls, the rest as they are. A literal backslash in the text can match too, which only costs
 * the walk below.
 */
const UNSAFE_IN_JSON = /\\u00[01][0-9a-f]|\\[bfr]|[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Every string inside a value (arrays and plain objects, keys included), made visible; the value
 * itself is not changed. Most output has nothing to escape: one scan of its JSON says so, and the
 * value is returned as it is, which for a page of tasks is a fraction of the walk.
 */
export function visibleStrings<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      // A value JSON cannot hold (a BigInt, a cycle): walk it.
    }
    if (json !== undefined && !UNSAFE_IN_JSON.test(json)) return value;
  }
  return walk(value);
}

function walk<T>(value: T): T {
  if (typeof value === 'string') return visibleText(value) as T;
  if (Array.isArray(value)) return value.map((v) => walk(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[visibleText(k)] = walk(v);
    return out as T;
  }
  return value;
}
