/** Prints a failure the way the mode asks (JSON on stdout, or message and suggestions on stderr) and picks the exit code. */
import { toCairnError, type CairnError } from '../core/errors.js';
import { cliSuggestion } from './cli-suggestions.js';
import { EXIT_CODES } from './exit-codes.js';
import { colorEnabled, painter } from './render/color.js';
import { visibleText } from './render/visible-text.js';
import { writeOut } from './stdout.js';

/**
 * The `--json` error shape: `{"error": {code, message, suggestions, details?}}`. Its reader runs the
 * CLI, so the suggestions are CLI commands, as at a terminal (the ops phrase them as tool calls).
 */
export function errorJson(err: CairnError): string {
  const body = err.toJSON();
  return JSON.stringify({ error: { ...body, suggestions: body.suggestions.map(cliSuggestion) } }, null, 2);
}

function humanError(err: CairnError): string {
  const paint = painter(colorEnabled(process.stderr));
  // Messages quote workspace text (titles in suggestions): escaped like any view (visible-text.ts).
  const lines = [`${paint('red', 'error')} ${paint('bold', err.code)}: ${visibleText(err.message)}`];
  for (const s of err.suggestions) lines.push(`  ${paint('dim', '→')} ${visibleText(cliSuggestion(s))}`);
  return lines.join('\n');
}

export function reportError(thrown: unknown, json: boolean): number {
  const err = toCairnError(thrown);
  if (json) writeOut(`${errorJson(err)}\n`);
  else process.stderr.write(`${humanError(err)}\n`);
  // An INTERNAL error is a bug: keep the stack for the report. Environment failures (CORRUPT,
  // DISK_FULL) share its kind but are named and explained: no stack.
  if (err.code === 'INTERNAL' && err.cause !== undefined) {
    process.stderr.write(`${err.cause instanceof Error ? (err.cause.stack ?? err.cause.message) : String(err.cause)}\n`);
  }
  return EXIT_CODES[err.kind];
}
