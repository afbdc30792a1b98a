/** Suggestions in REST terms: the ops' tool calls (`get_task {id: "API-1"}`) as the routes that do the same (`GET /api/v1/tasks/API-1`). */
import { findOp } from '../ops/index.js';
import { suggestedCall } from '../ops/suggestion-call.js';

/** A value as JSON: numbers and booleans as they are, anything else a string. */
const jsonValue = (v: string | undefined): unknown => (v === undefined ? '…' : /^(true|false|-?\d+(\.\d+)?)$/.test(v) ? JSON.parse(v) : v);

/** One suggestion as a route; text that is not a tool call (or names no REST op) is returned unchanged. */
export function restSuggestion(text: string): string {
  const call = suggestedCall(text);
  const op = call && findOp(call.op);
  if (!call || !op) return text;
  let path = `/api/v1${op.rest.path}`;
  const rest: Record<string, unknown> = {};
  for (const [k, v] of call.args) {
    if (path.includes(`:${k}`)) path = path.replace(`:${k}`, v === undefined ? `<${k}>` : encodeURIComponent(v));
    else rest[k] = jsonValue(v);
  }
  path = path.replace(/:(\w+)/g, '<$1>');
  const keys = Object.keys(rest);
  if (op.rest.method === 'GET') {
    const query = keys.map((k) => `${k}=${encodeURIComponent(String(rest[k]))}`).join('&');
    return `GET ${path}${query ? `?${query}` : ''}${call.rest}`;
  }
  return `${op.rest.method} ${path}${keys.length ? ` ${JSON.stringify(rest)}` : ''}${call.rest}`;
}
