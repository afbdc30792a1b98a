/**
 * tools/list, answered by Cairn. Every tool of every toolset stays registered with the SDK, so a
 * call to one the server does not serve answers why (FORBIDDEN naming the toolset, READ_ONLY for a
 * write on a read-only server) in the surface's own error format; the list names only what is
 * served. The SDK has no public way to list some registered tools and not others, so this handler
 * replaces McpServer's and builds each entry the way the SDK does: test/mcp/sdk-internals.test.ts
 * compares the two lists for a server that hides nothing.
 */
import type { McpServer, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';

export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: StandardSchemaWithJSON;
  outputSchema?: StandardSchemaWithJSON;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  /** What the entry depends on besides the code (the op, the parameters hidden, a receipt), to find it in saved entries. */
  key?: string;
}

/**
 * tools/list entries kept between runs, by ListedTool.key: converting the zod schemas to JSON Schema
 * was the largest part of a session's first tools/list. bin/cairn.js keeps them beside its code cache,
 * one file per bundle, so they are never older than the code that made them.
 */
export interface SavedToolEntries {
  get(key: string): Record<string, unknown> | undefined;
  set(key: string, entry: Record<string, unknown>): void;
}

/** How a tool shows in one client's list: listed, listed for MCP Apps views only (apps.ts), or not at all. */
export type Shown = 'listed' | 'view-only' | 'hidden';

/** The JSON Schema dialect the SDK converts to (its JSON_SCHEMA_CONVERSION_TARGET). */
const TARGET = { target: 'draft-2020-12' };

type Std = { '~standard': { jsonSchema: Record<'input' | 'output', (o: unknown) => Record<string, unknown>> } };

function entryOf(t: ListedTool): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: t.name,
    title: t.title,
    description: t.description,
    // Tool inputs are objects: the SDK says so even when the converted schema leaves `type` out.
    inputSchema: { type: 'object', ...(t.inputSchema as unknown as Std)['~standard'].jsonSchema.input(TARGET) },
    annotations: t.annotations,
    _meta: t._meta,
  };
  if (t.outputSchema) {
    const out = (t.outputSchema as unknown as Std)['~standard'].jsonSchema.output(TARGET);
    entry.outputSchema = out.type === undefined ? { type: 'object', ...out } : out;
  }
  return entry;
}

/**
 * Answers tools/list with `tools` as `show` decides for each (per request: a client that renders
 * apps sees more). Call once every tool is registered: it replaces McpServer's own handler.
 */
export function serveToolList(
  server: McpServer,
  tools: readonly ListedTool[],
  show: (name: string, reqCtx: unknown) => Shown,
  viewOnlyEntry: (t: ListedTool) => Record<string, unknown>,
  saved?: SavedToolEntries,
): void {
  const entries = new Map<string, Record<string, unknown>>();
  const entry = (t: ListedTool) => {
    let e = entries.get(t.name) ?? (saved && t.key ? saved.get(t.key) : undefined);
    if (!e) {
      e = entryOf(t);
      if (saved && t.key) saved.set(t.key, e);
    }
    entries.set(t.name, e);
    return e;
  };
  server.server.setRequestHandler('tools/list', (_req, ctx) => ({
    tools: tools.flatMap((t) => {
      const shown = show(t.name, ctx);
      return shown === 'hidden' ? [] : [shown === 'listed' ? entry(t) : viewOnlyEntry(t)];
    }) as never,
  }));
}
