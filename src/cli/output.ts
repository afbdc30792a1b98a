/** Writes a command's result: the op's output as JSON with --json, else the binding's human view. */
import { colorEnabled, painter } from './render/color.js';
import { renderView, type ViewName } from './render/views.js';

export function emit(out: unknown, opts: { json?: boolean | undefined; view: ViewName; verb?: string | undefined }): void {
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  const stdout = process.stdout;
  const env = { paint: painter(colorEnabled(stdout)), width: stdout.isTTY ? stdout.columns : undefined, verb: opts.verb };
  process.stdout.write(`${renderView(opts.view, out, env)}\n`);
}
