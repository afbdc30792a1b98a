/** Writes a command's result: the op's output as JSON with --json, else the binding's human view. */
import { colorEnabled, painter } from './render/color.js';
import { renderView, type ViewName } from './render/views.js';
import { stdoutColumns, stdoutIsTTY, writeOut } from './stdout.js';

export function emit(out: unknown, opts: { json?: boolean | undefined; view: ViewName; verb?: string | undefined }): void {
  if (opts.json) {
    writeOut(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  const env = { paint: painter(colorEnabled({ isTTY: stdoutIsTTY() })), width: stdoutColumns(), verb: opts.verb };
  writeOut(`${renderView(opts.view, out, env)}\n`);
}
