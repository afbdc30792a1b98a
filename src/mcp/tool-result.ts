/** Tool results: a successful op becomes markdown + structuredContent, a CairnError an isError result that begins with its code. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CairnError } from '../core/errors.js';
import { renderResult, type RenderContext } from './render.js';

/** `CODE: what went wrong, why, how to fix` then the suggestions, each naming a tool and arguments. */
export function errorText(err: CairnError): string {
  const lines = [`${err.code}: ${err.message}`];
  if (err.suggestions.length) lines.push('Suggestions:', ...err.suggestions.map((s) => `- ${s}`));
  return lines.join('\n');
}

export function errorResult(err: CairnError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorText(err) }] };
}

export function okResult(r: RenderContext, output: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: renderResult(r, output) }],
    structuredContent: output as Record<string, unknown>,
  };
}
