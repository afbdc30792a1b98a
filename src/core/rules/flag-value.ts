/**
 * What an on/off setting given as text means — an environment variable (CAIRN_READ_ONLY), a query
 * parameter (`?readOnly`, `?includeArchived=yes`) — so every surface reads the same text the same way.
 */

const ON = /^(|1|true|yes|on)$/i;
const OFF = /^(0|false|no|off)$/i;

/**
 * `true` for "", 1, true, yes, on; `false` for 0, false, no, off (any case, spaces ignored);
 * `undefined` for anything else. The empty string is on: a flag named without a value (`?readOnly`,
 * `CAIRN_READ_ONLY=` in a host's config) asks for the setting, and for read-only that is the safe reading.
 */
export function flagValue(text: string): boolean | undefined {
  const t = text.trim();
  if (ON.test(t)) return true;
  if (OFF.test(t)) return false;
  return undefined;
}

/** A setting that is on: a boolean `true` (a CLI flag) or text that `flagValue` reads as on; unset and unknown text are off. */
export function truthy(v: boolean | string | undefined | null): boolean {
  return v === true || (typeof v === 'string' && flagValue(v) === true);
}
