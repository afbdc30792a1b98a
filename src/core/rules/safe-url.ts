/**
 * Which URLs a link may lead to: http, https and mailto, as the URL parser reads them. A pattern on
 * the raw text is not enough: browsers strip leading control characters and spaces and drop tabs and
 * line breaks anywhere, so `\x01javascript:…` is a javascript: link to them. Shared by the board's
 * renderer and the task's link fields, so what is stored and what is drawn follow one rule.
 */
export const LINK_SCHEMES: readonly string[] = ['http:', 'https:', 'mailto:'];

/** The same base for every relative link: only its scheme matters here. */
const BASE = 'https://relative.invalid/';

/**
 * Whether `url` may be a link target: no control characters at all, and a scheme in `schemes` once
 * parsed (a relative link takes the base's https when `relative` allows it).
 */
export function isSafeUrl(url: string, opts: { relative?: boolean; schemes?: readonly string[] } = {}): boolean {
  if (/[\u0000-\u001f\u007f]/.test(url)) return false;
  let parsed: URL;
  try {
    parsed = opts.relative ? new URL(url, BASE) : new URL(url);
  } catch {
    return false;
  }
  return (opts.schemes ?? LINK_SCHEMES).includes(parsed.protocol);
}
