import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken, listTokens } from '../../src/core/services/tokens.js';
import { runCli, serve, type Served } from './http-harness.js';

let s: Served;
let away: string;
const secrets: Record<'admin' | 'writer' | 'reader' | 'webAdmin', string> = { admin: '', writer: '', reader: '', webAdmin: '' };
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const ctx = () => ({ store: s.store, clock: systemClock, actor: 'test' });
/** Every token as it stands, but when it was last used (the request itself touches that). */
const tokensNow = async () => (await listTokens(ctx(), { includeRevoked: true })).map(({ lastUsedAt: _, ...t }) => t);

beforeAll(async () => {
  s = await serve({ rateLimit: false });
  // Before the first token the loopback caller may do anything, this included.
  expect((await s.call('POST', '/api/v1/projects', { key: 'WEB', name: 'Web' })).status).toBe(201);
  secrets.admin = (await createToken(ctx(), { name: 'admin', scope: 'admin' })).secret;
  secrets.writer = (await createToken(ctx(), { name: 'writer', scope: 'write' })).secret;
  secrets.reader = (await createToken(ctx(), { name: 'reader', scope: 'read' })).secret;
  secrets.webAdmin = (await createToken(ctx(), { name: 'web-admin', scope: 'admin', projects: ['WEB'] })).secret;
  away = mkdtempSync(join(tmpdir(), 'cairn-token-ops-'));
});
afterAll(async () => {
  await s.stop();
  rmSync(away, { recursive: true, force: true });
});

/** The built CLI against the running server, from a folder with no workspace. */
function cairn(args: string[], secret: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(args, { cwd: away, env: { PATH: process.env.PATH ?? '', HOME: away, NO_COLOR: '1', CAIRN_TOKEN: secret, CAIRN_REGISTRY: 'off' } });
}

describe('token ops over REST', () => {
  it('an admin token creates a token that authenticates, lists it without secret or hash, and revokes it (401 at once)', async () => {
    const admin = bearer(secrets.admin);
    const made = await s.call('POST', '/api/v1/tokens', { name: 'bot', scope: 'write' }, admin);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.token).toMatchObject({ name: 'bot', scope: 'write', projects: null, revokedAt: null });
    expect(made.body.token).not.toHaveProperty('hash');
    const bot = made.body.secret as string;
    expect(bot).toMatch(/^cairn_/);
    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(bot))).status).toBe(200);

    const listed = await s.call('GET', '/api/v1/tokens', undefined, admin);
    expect(listed.status).toBe(200);
    expect(listed.body.tokens.map((t: { name: string }) => t.name)).toContain('bot');
    expect(JSON.stringify(listed.body)).not.toContain(bot);
    for (const t of listed.body.tokens) expect(t).not.toHaveProperty('hash');

    const revoked = await s.call('POST', '/api/v1/tokens/revoke', { token: 'bot' }, admin);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.token).toMatchObject({ name: 'bot', revokedAt: expect.any(String) });
    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(bot))).status).toBe(401);
    expect((await s.call('GET', '/api/v1/tokens', undefined, admin)).body.tokens.map((t: { name: string }) => t.name)).not.toContain('bot');
    const all = await s.call('GET', '/api/v1/tokens?includeRevoked=true', undefined, admin);
    expect(all.body.tokens.find((t: { name: string }) => t.name === 'bot')).toMatchObject({ revokedAt: expect.any(String) });
  });

  it.each([
    ['a write token', 'writer'],
    ['a read token', 'reader'],
    ['an admin token limited to a project', 'webAdmin'],
  ] as const)('%s is refused every token and link op with 403 FORBIDDEN naming the admin scope, and nothing changes', async (_label, who) => {
    const before = await tokensNow();
    const links = async () => (await s.call('GET', '/api/v1/links', undefined, bearer(secrets.admin))).body.links;
    const linksBefore = await links();
    for (const [method, path, body] of [
      ['POST', '/api/v1/tokens', { name: 'minted', scope: 'admin' }],
      ['GET', '/api/v1/tokens', undefined],
      ['POST', '/api/v1/tokens/revoke', { token: 'admin' }],
      // A link reads (and may write) any path on the server's machine.
      ['POST', '/api/v1/links', { path: '/etc', from: 'backlog' }],
      ['POST', '/api/v1/links/unlink', { path: '/etc' }],
      // And the list names paths on the server's machine.
      ['GET', '/api/v1/links', undefined],
    ] as const) {
      const r = await s.call(method, path, body, bearer(secrets[who]));
      expect([method, path, r.status, r.body.error?.code]).toEqual([method, path, 403, 'FORBIDDEN']);
      expect(r.body.error.message).toMatch(/needs a token with scope "admin" that is not limited to projects.*Nothing was done\./);
      expect(r.body.error.suggestions.join('\n')).toContain('cairn token create --name NAME --scope admin');
      expect(r.headers.get('www-authenticate')).toContain('scope="admin"');
    }
    expect(await tokensNow()).toEqual(before);
    expect(await links()).toEqual(linksBefore);
  });
});

describe('token ops over MCP on HTTP', () => {
  async function listOver(secret: string): Promise<{ isError?: boolean; text: string }> {
    const c = new Client({ name: 'token-ops', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp?toolsets=admin`), { requestInit: { headers: bearer(secret) } }));
    try {
      const r = (await c.callTool({ name: 'list_tokens', arguments: {} })) as { isError?: boolean; content: Array<{ text?: string }> };
      return { isError: r.isError, text: r.content.map((x) => x.text ?? '').join('\n') };
    } finally {
      await c.close();
    }
  }

  it('lists for an admin token, and refuses a write token with FORBIDDEN', async () => {
    const ok = await listOver(secrets.admin);
    expect(ok.isError, ok.text).toBeFalsy();
    expect(ok.text).toContain('"web-admin" (admin, projects WEB');
    const refused = await listOver(secrets.writer);
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^FORBIDDEN: list_tokens administers this server/);
  });

  it('a read token calling a writing admin op is told it needs the admin scope, as over REST', async () => {
    const before = await tokensNow();
    for (const [name, args] of [
      ['create_token', { name: 'minted', scope: 'admin' }],
      ['link_source', { path: '/etc', from: 'backlog' }],
    ] as const) {
      const r = await s.call(
        'POST',
        '/mcp?toolsets=admin',
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
        { ...bearer(secrets.reader), accept: 'application/json, text/event-stream' },
      );
      expect([name, r.status]).toEqual([name, 403]);
      expect(r.body.error.message).toMatch(new RegExp(`^FORBIDDEN: ${name} administers this server.*scope "admin"`));
    }
    expect(await tokensNow()).toEqual(before);
  });
});

describe('cairn token --remote', () => {
  it('with an admin token lists, creates and revokes the remote server’s tokens, printing what it prints locally', async () => {
    const listed = await cairn(['token', 'list', '--remote', s.url, '--json'], secrets.admin);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).tokens.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['admin', 'writer', 'reader', 'web-admin']));
    const table = await cairn(['--remote', s.url, 'token', 'list'], secrets.admin);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+SCOPE\s+PROJECTS\s+PREFIX\s+CREATED\s+LAST USED/);
    expect(table.stdout).toMatch(/web-admin\s+admin\s+WEB\s+cairn_/);

    const made = await cairn(['--remote', s.url, 'token', 'create', '--name', 'remote-bot', '--scope', 'read'], secrets.admin);
    expect(made.code, made.stderr).toBe(0);
    const secret = /^\s+(cairn_\S+)$/m.exec(made.stdout)?.[1];
    expect(secret, made.stdout).toBeDefined();
    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(secret!))).status).toBe(200);
    const revoked = await cairn(['--remote', s.url, 'token', 'revoke', 'remote-bot'], secrets.admin);
    expect([revoked.code, revoked.stdout.trim()]).toEqual([0, 'Revoked token "remote-bot".']);
    expect((await s.call('GET', '/api/v1/projects', undefined, bearer(secret!))).status).toBe(401);
  });

  it('with a write token is refused (FORBIDDEN, exit 4), and creates nothing', async () => {
    const before = await tokensNow();
    const r = await cairn(['--remote', s.url, 'token', 'create', '--name', 'sneaky', '--scope', 'admin'], secrets.writer);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('FORBIDDEN');
    expect(r.stderr).toContain('scope "admin"');
    expect(await tokensNow()).toEqual(before);
  });
});
