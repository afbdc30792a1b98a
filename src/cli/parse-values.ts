/** Turns flag text into values for the op; anything that does not parse is passed on as text so the op's schema names the field. */
import { CairnError } from '../core/errors.js';

/** `"3"` → 3; `"abc"` stays `"abc"` (the op then reports "expected number"). */
export function parseNumber(text: string): number | string {
  const t = text.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : text;
}

/** Accumulates a repeatable list flag, splitting on commas where the items cannot contain them. */
export function appendList(text: string, previous: unknown, opts: { split: boolean; numeric: boolean }): unknown[] {
  const items = opts.split
    ? text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : [text];
  return [...(Array.isArray(previous) ? previous : []), ...items.map((i) => (opts.numeric ? parseNumber(i) : i))];
}

export function parseJson(text: string, flag: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CairnError('VALIDATION_ERROR', `--${flag} takes JSON, and ${JSON.stringify(text.slice(0, 80))} is not valid JSON. Nothing was changed.`, {
      suggestions: [`Quote the JSON for your shell, e.g. --${flag} '{"key":"value"}'`],
    });
  }
}

/** A repeatable JSON flag: each use adds one element (or all elements of a JSON array). */
export function appendJson(text: string, previous: unknown, flag: string): unknown[] {
  const value = parseJson(text, flag);
  return [...(Array.isArray(previous) ? previous : []), ...(Array.isArray(value) ? value : [value])];
}
