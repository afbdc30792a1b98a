/** What every human view gets: a painter, the terminal width (TTY only) and the command's verb. */
import type { Paint } from './color.js';

export interface RenderEnv {
  paint: Paint;
  width?: number | undefined;
  verb?: string | undefined;
}
