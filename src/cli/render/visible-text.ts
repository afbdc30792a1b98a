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

/** Every string inside a value (arrays and plain objects, keys included), made visible; the value itself is not changed. */
export function visibleStrings<T>(value: T): T {
  if (typeof value === 'string') return visibleText(value) as T;
  if (Array.isArray(value)) return value.map((v) => visibleStrings(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[visibleText(k)] = visibleStrings(v);
    return out as T;
  }
  return value;
}
