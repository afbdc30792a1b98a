/**
 * The web board's static files (built by Vite into dist/web) at `/` and `/assets/…`. They hold no
 * data, so they are served behind the Host/Origin guard but before the token check: a browser
 * cannot send a bearer token when it navigates, and the page itself asks for one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Hono } from 'hono';

/** dist/web from both src/http (tests run the sources) and dist/http (the package): two levels below the root. */
export const BOARD_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** The page may talk only to this server; inline scripts and styles in markup are refused. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Asset {
  body: Uint8Array;
  gzip: Uint8Array | undefined;
  type: string;
  etag: string;
  cache: string;
}

function load(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  if (!existsSync(join(dir, 'index.html'))) return out;
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  for (const file of walk(dir)) {
    const type = TYPES[extname(file)];
    if (!type) continue;
    const body = readFileSync(file);
    const path = `/${relative(dir, file).split(sep).join('/')}`;
    const zipped = /^text|json|svg/.test(type) && body.length > 1024 ? gzipSync(body, { level: 9 }) : undefined;
    out.set(path === '/index.html' ? '/' : path, {
      body,
      gzip: zipped,
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      // Vite names assets by content hash: they never change; the page itself is revalidated each time.
      cache: path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }
  return out;
}

const NOT_BUILT =
  '<!doctype html><meta charset="utf-8"><title>Cairn</title><p>The board is not built. Run <code>npm run build</code> (it writes dist/web) and restart <code>cairn serve</code>. The REST API is at <a href="/api/v1/openapi.json">/api/v1</a>.</p>';

/** Registers GET `/` and `/assets/…`; the files are read once at start-up (a rebuild needs a restart). */
export function mountBoardAssets(app: Hono<any>, dir: string = BOARD_DIR): void {
  const assets = load(dir);
  const serveAsset = (path: string, req: Request): Response | undefined => {
    const a = assets.get(path);
    if (!a) return undefined;
    const headers: Record<string, string> = { 'content-type': a.type, 'cache-control': a.cache, etag: a.etag, 'x-content-type-options': 'nosniff', vary: 'accept-encoding' };
    if (path === '/') Object.assign(headers, { 'content-security-policy': CSP, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' });
    if (req.headers.get('if-none-match') === a.etag) return new Response(null, { status: 304, headers });
    const gz = a.gzip && /\bgzip\b/.test(req.headers.get('accept-encoding') ?? '');
    if (gz) headers['content-encoding'] = 'gzip';
    const body = gz ? a.gzip! : a.body;
    return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers: { ...headers, 'content-length': String(body.length) } });
  };
  // Hono answers HEAD with the GET route, without the body.
  app.get('/', (c) => serveAsset('/', c.req.raw) ?? c.html(NOT_BUILT, 503, { 'cache-control': 'no-cache' }));
  app.get('/assets/*', async (c, next) => serveAsset(c.req.path, c.req.raw) ?? (await next()));
}
