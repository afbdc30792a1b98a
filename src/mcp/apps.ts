/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): views a host renders beside the chat. The
 * board, one card, and the work in progress (ready queue, claims, activity). Each view is a `ui://`
 * resource holding one self-contained HTML file (dist/apps/view.html, built by
 * scripts/bundle-views.js), and the tool whose result it shows points at it with `_meta.ui`.
 *
 * Hosts that do not render apps ignore both: they get the same text and structured results.
 *
 * A view needs a few ops outside the default toolsets (the activity feed, a task's history, labels,
 * path claims, archiving and deleting a card and bringing it back). For a client that declares the extension, those are callable and listed
 * with `visibility: ["app"]`, which tells the host to keep them from the model: the model's tool list
 * stays as small as the toolsets chosen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type McpServer } from '@modelcontextprotocol/server';

/*
 * The extension's names, as @modelcontextprotocol/ext-apps/server exports them. That package is a
 * build-time dependency (the views bundle its App class): at run time it would bring its required
 * peer, the SDK's client, into every install, for four strings. test/mcp/apps.test.ts compares them.
 */
export const EXTENSION_ID = 'io.modelcontextprotocol/ui';
export const RESOURCE_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension's first form of `_meta.ui.resourceUri`, which hosts from before 2026 read. */
export const RESOURCE_URI_META_KEY = 'ui/resourceUri';

export type ViewName = 'board' | 'card' | 'work';

interface View {
  uri: string;
  /** The tool whose result the view shows. */
  tool: string;
  title: string;
  description: string;
}

export const VIEWS: Record<ViewName, View> = {
  board: { uri: 'ui://cairn/board.html', tool: 'board_overview', title: 'Cairn board', description: 'The project board: lanes, cards, claims, live.' },
  card: { uri: 'ui://cairn/card.html', tool: 'get_task', title: 'Cairn card', description: 'One task, editable: fields, checklist, dependencies, comments, history.' },
  work: { uri: 'ui://cairn/work.html', tool: 'next_tasks', title: 'Cairn: ready and at work', description: 'The ready queue, the claims with their leases, and the activity feed.' },
};

/** Ops the views call that the default toolsets do not serve: callable by a view, kept from the model. */
export const VIEW_ONLY_OPS: ReadonlySet<string> = new Set(['changes_since', 'task_history', 'list_labels', 'check_paths', 'archive_task', 'delete_task', 'restore_task']);

/** `_meta` for a tool that has a view; undefined for the rest. */
export function viewMetaOf(tool: string): Record<string, unknown> | undefined {
  const view = Object.values(VIEWS).find((v) => v.tool === tool);
  // The flat key is the extension's first form; hosts from before 2026 read only that one.
  return view ? { ui: { resourceUri: view.uri }, [RESOURCE_URI_META_KEY]: view.uri } : undefined;
}

/** dist/apps/view.html from dist/mcp, from a bundle chunk in dist/mcp/chunks, or from src/mcp (tests run the sources). */
const VIEW_FILES = ['../apps/view.html', '../../apps/view.html', '../../dist/apps/view.html'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
let html: string | undefined;
function viewHtml(name: ViewName): string {
  if (html === undefined) {
    const file = VIEW_FILES.find((f) => existsSync(f));
    if (!file) throw new Error('dist/apps/view.html is missing: run npm run build');
    html = readFileSync(file, 'utf8');
  }
  // One bundle serves every view; the page reads which one it is from this tag.
  return html.replace('<meta name="cairn-view" content="board">', `<meta name="cairn-view" content="${name}">`);
}

/** Registers the views' resources. The HTML is read on the first resources/read, not at start-up. */
export function registerViews(server: McpServer): void {
  for (const [name, view] of Object.entries(VIEWS) as Array<[ViewName, View]>) {
    server.registerResource(
      view.title,
      view.uri,
      {
        mimeType: RESOURCE_MIME_TYPE,
        description: view.description,
        // No network at all: the view talks only to the host, through postMessage.
        _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: false } },
      },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: viewHtml(name) }] }),
    );
  }
}

/** The client's capabilities for this request: from its envelope (2026 clients) or the initialize handshake. */
export function clientCapabilities(server: McpServer, reqCtx: unknown): ClientCapabilities | undefined {
  const envelope = (reqCtx as { mcpReq?: { envelope?: Record<string, unknown> } } | undefined)?.mcpReq?.envelope;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.server.getClientCapabilities();
}

/** Whether the client renders apps. */
export function rendersApps(server: McpServer, reqCtx: unknown): boolean {
  const caps = clientCapabilities(server, reqCtx);
  return (caps as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[EXTENSION_ID] !== undefined;
}

/** A view-only tool as listed to a client that renders apps: hidden from the model, with no schema to spend bytes on. */
export function viewOnlyEntry(tool: { name: string; title?: string }): Record<string, unknown> {
  return { name: tool.name, title: tool.title, description: 'For Cairn views.', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } };
}
