/** Aligned text tables: widths from the plain text, styling applied after padding so escape codes never skew columns. */
import type { Paint, Style } from './color.js';

export interface Cell {
  text: string;
  style?: Style | undefined;
}

export interface TableOptions {
  paint: Paint;
  /** Terminal width; when set, the flexible column is shortened to fit. */
  width?: number | undefined;
  /** Index of the column that may be truncated (usually the title). */
  flex?: number;
}

const cell = (c: Cell | string): Cell => (typeof c === 'string' ? { text: c } : c);

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/** Renders a header row and rows; the last column is not padded (no trailing spaces). */
export function table(header: string[], rows: Array<Array<Cell | string>>, opts: TableOptions): string {
  const grid = rows.map((r) => r.map(cell));
  const widths = header.map((h, i) => Math.max(h.length, ...grid.map((r) => r[i]?.text.length ?? 0)));
  if (opts.width && opts.flex !== undefined) {
    const total = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
    const over = total - opts.width;
    if (over > 0) widths[opts.flex] = Math.max(12, widths[opts.flex]! - over);
  }
  const line = (cells: Cell[], isHeader: boolean): string =>
    cells
      .map((c, i) => {
        const text = i === opts.flex ? truncate(c.text, widths[i]!) : c.text;
        const padded = i === cells.length - 1 ? text : text.padEnd(widths[i]!);
        const style = isHeader ? 'bold' : c.style;
        return style ? opts.paint(style, padded) : padded;
      })
      .join('  ')
      .trimEnd();
  return [
    line(
      header.map((text) => ({ text })),
      true,
    ),
    ...grid.map((r) => line(r, false)),
  ].join('\n');
}
