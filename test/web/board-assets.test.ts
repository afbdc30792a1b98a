/** Serving the built board (no browser needed): content types, caching, ETag, gzip, nothing outside the build, and a clear page when it is not built. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { mountBoardAssets } from '../../src/http/board-assets.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-assets-'));
mkdirSync(join(dir, 'assets'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc.js"></script>');
writeFileSync(join(dir, 'assets', 'index-abc.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
writeFileSync(join(dir, 'assets', 'index-abc.css'), 'body{color:red}');
writeFileSync(join(dir, 'secret.txt'), 'not an asset type');

function app(from: string): Hono {
  const a = new Hono();
  mountBoardAssets(a, from);
  a.notFound((c) => c.json({ error: { code: 'ROUTE_NOT_FOUND' } }, 404));
  return a;
}

describe('board assets', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const served = app(dir);
  const get = (path: string, headers: Record<string, string> = {}) => served.request(path, { headers });

  it('serves the page, revalidated each time, with a CSP', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('/assets/index-abc.js');
    expect((await get('/', { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
  });

  it('serves hashed assets as immutable, gzipped when asked', async () => {
    const js = await get('/assets/index-abc.js', { 'accept-encoding': 'gzip, br' });
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await js.arrayBuffer())).toString()).toContain('console.log');
    const plain = await get('/assets/index-abc.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await get('/assets/index-abc.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves nothing else: unknown names, other file types, paths out of the folder', async () => {
    for (const path of ['/assets/nope.js', '/secret.txt', '/index.html', '/assets/../secret.txt', '/assets/%2e%2e/index.html']) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it('says how to build when there is no build', async () => {
    const res = await app(join(dir, 'missing')).request('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
  });
});
