/**
 * The test host's page script: what a chat client does with an MCP Apps view. It puts the view's
 * HTML in a sandboxed iframe (scripts only, an opaque origin, a CSP with no network), connects the
 * SDK's host bridge to it, and passes the view's tool calls to the real MCP client in the test
 * (window.cairnHostCall, exposed by Playwright).
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

/** What the host enforces on top of the iframe sandbox: inline code only, no fetch, no images from anywhere. */
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'";

interface Mount {
  html: string;
  args: Record<string, unknown>;
  result: Record<string, unknown>;
  theme: 'light' | 'dark';
  width: number;
  height: number;
}

declare global {
  interface Window {
    cairnHostCall(params: unknown): Promise<unknown>;
    mountView(m: Mount): Promise<void>;
    setTheme(theme: 'light' | 'dark'): void;
    hostLog: string[];
  }
}

let bridge: AppBridge | undefined;
window.hostLog = [];

window.mountView = async (m) => {
  document.body.replaceChildren();
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'Cairn view';
  frame.style.cssText = `width:${m.width}px;height:${m.height}px;border:0;display:block`;
  document.body.append(frame);
  const ready = new Promise<void>((done) => {
    bridge = new AppBridge(
      null,
      { name: 'cairn-test-host', version: '1.0.0' },
      { serverTools: {}, logging: {} },
      { hostContext: { theme: m.theme, displayMode: 'inline', containerDimensions: { width: m.width, maxHeight: m.height }, platform: 'web' } },
    );
    bridge.oncalltool = async (params) => (await window.cairnHostCall(params)) as never;
    bridge.onloggingmessage = (p) => window.hostLog.push(String(p.data));
    bridge.oninitialized = () => {
      void bridge!.sendToolInput({ arguments: m.args });
      void bridge!.sendToolResult(m.result as never);
      done();
    };
  });
  await bridge!.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = m.html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${CSP}">`);
  await ready;
};

window.setTheme = (theme) => {
  void bridge?.sendHostContextChange({ theme });
};
