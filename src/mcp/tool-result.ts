/** Tool results: a successful op becomes markdown + structuredContent, a CairnError an isError result that begins with its code. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CairnError } from '../core/errors.js';
import { errorText } from '../ops/error-text.js';
import { renderResult, type RenderContext } from './render.js';

export { errorText };

export function errorResult(err: CairnError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorText(err) }] };
}

export function okResult(r: RenderContext, output: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: renderResult(r, output) }],
    structuredContent: output as Record<string, unknown>,
  };
}
