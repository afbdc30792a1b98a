/** ANSI styling that switches itself off: colour only on a TTY and only when NO_COLOR is unset. */

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray';
export type Paint = (style: Style, text: string) => string;

const CODES: Record<Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
};

/** NO_COLOR (any value) wins; FORCE_COLOR (not "0") turns colour on for pipes, e.g. in tests of the coloured path. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

export function painter(enabled: boolean): Paint {
  if (!enabled) return (_style, text) => text;
  return (style, text) => (text ? `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m` : text);
}
