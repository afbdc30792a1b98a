/**
 * A `tools/call` whose arguments hold a "__proto__" key. JSON.parse keeps it as an own key, and
 * run-op refuses it like any unknown field, but the SDK's message schemas drop it silently before a
 * tool sees its arguments. So both transports look at the raw parsed message first (stdio-guard.ts,
 * http/mcp-endpoint.ts) and answer such a call with the JSON-RPC error run-op would have named.
 */
import { CairnError } from '../core/errors.js';

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: unknown };
}

/** The refusal for the first tools/call in `body` (a message or a batch) with a `__proto__` argument, if any. */
export function protoArgumentRefusal(body: unknown): JsonRpcErrorResponse | undefined {
  for (const m of Array.isArray(body) ? body : [body]) {
    const msg = m as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
    if (msg?.method !== 'tools/call') continue;
    const args = msg.params?.arguments;
    if (typeof args !== 'object' || args === null || !Object.prototype.hasOwnProperty.call(args, '__proto__')) continue;
    const tool = typeof msg.params?.name === 'string' ? msg.params.name : 'the tool';
    const e = new CairnError('VALIDATION_ERROR', `Invalid arguments for ${tool}: unknown field "__proto__". Nothing was changed.`, { suggestions: ['Remove "__proto__"'] });
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null;
    return { jsonrpc: '2.0', id, error: { code: -32602, message: `${e.code}: ${e.message}`, data: e.toJSON() } };
  }
  return undefined;
}
