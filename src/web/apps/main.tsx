/**
 * An MCP Apps view's entry: connects to the host, follows its theme and size, and shows the view the
 * page was served as (`<meta name="cairn-view">`) for the project or task the tool was called with.
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-with-deps';
import { render } from 'preact';
import { BoardModel } from '../lib/model.js';
import { BridgeApi } from './bridge-api.js';
import { PollFeed } from './poll-feed.js';
import { BoardView, CardView, WorkView } from './views.js';

type ViewName = 'board' | 'card' | 'work';
const view = (document.querySelector('meta[name="cairn-view"]')?.getAttribute('content') ?? 'board') as ViewName;
const root = document.getElementById('app')!;

function follow(ctx: McpUiHostContext | undefined): void {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
  // The host's budget: the view scrolls inside it instead of growing past it.
  const dims = ctx.containerDimensions as { maxHeight?: number; height?: number } | undefined;
  const height = dims?.height ?? dims?.maxHeight;
  if (height) document.documentElement.style.setProperty('--view-height', `${height}px`);
}

/** The task (card view) or project the tool was called for: from its arguments, else from its result. */
function targetOf(args: Record<string, unknown> | undefined, result: Record<string, unknown> | undefined): { id?: string; project?: string } {
  const task = result?.task as { id?: string; project?: string } | undefined;
  const id = typeof args?.id === 'string' ? args.id.toUpperCase() : task?.id;
  const project = typeof args?.project === 'string' ? args.project : (task?.project ?? (result?.project as { key?: string } | undefined)?.key ?? id?.replace(/-\d+$/, ''));
  return { ...(id ? { id } : {}), ...(project ? { project } : {}) };
}

const app = new App({ name: 'Cairn', version: '0.1.0' }, {}, { autoResize: true });
let args: Record<string, unknown> | undefined;
let result: Record<string, unknown> | undefined;
let started = false;
const api = new BridgeApi(app);
const model = new BoardModel(api, (handlers) => new PollFeed(api, handlers));
(window as unknown as { cairnView: BoardModel }).cairnView = model;

function show(): void {
  if (started) return;
  const target = targetOf(args, result);
  if (view === 'card' && !target.id) return; // wait for the tool's input or result
  started = true;
  void model.start(target.project ?? null);
  setInterval(() => model.changed(), 1000); // lease countdowns and touched-card highlights age
  if (view === 'card') render(<CardView model={model} id={target.id!} />, root);
  else if (view === 'work') render(<WorkView model={model} />, root);
  else render(<BoardView model={model} />, root);
}

// Registered before connecting: the host may send them as soon as the handshake ends.
app.ontoolinput = (p) => {
  args = p.arguments;
  show();
};
app.ontoolresult = (p) => {
  result = (p.structuredContent as Record<string, unknown> | undefined) ?? undefined;
  show();
};
app.onhostcontextchanged = (ctx) => follow(ctx);

await app.connect();
follow(app.getHostContext());
// A view opened without a tool call (a host showing the resource by itself) shows the session's project.
if (view !== 'card') setTimeout(show, 300);
