/** An error as agents read it: `CODE: what went wrong, why, how to fix`, then the suggestions. MCP tools and profiles share it. */
import type { CairnError } from '../core/errors.js';

export function errorText(err: CairnError): string {
  const lines = [`${err.code}: ${err.message}`];
  if (err.suggestions.length) lines.push('Suggestions:', ...err.suggestions.map((s) => `- ${s}`));
  return lines.join('\n');
}
