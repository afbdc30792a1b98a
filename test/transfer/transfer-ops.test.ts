import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/ports.js';
import { createToken } from '../../src/core/services/tokens.js';
import { runCli, serve, type Served } from '../http/http-harness.js';
import { connectV1 } from '../mcp/helpers.js';

let s: Served;
let away: string;
let admin = '';
let writer = '';
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** The built CLI from a folder with no workspace; `env` names the workspace or the server. */
function cairn(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(args, { cwd: away, env: { PATH: process.env.PATH ?? '', HOME: away, NO_COLOR: '1', CAIRN_REGISTRY: 'off', ...env } });
}

beforeAll(async () => {
  s = await serve({ rateLimit: false });
  away = mkdtempSync(join(tmpdir(), 'cairn-transfer-ops-'));
  const ctx = { store: s.store, clock: systemClock, actor: 'test' };
  await s.call('POST', '/api/v1/projects', { key: 'API', name: 'API' });
  for (const title of ['one', 'two', 'three']) await s.call('POST', '/api/v1/tasks', { project: 'API', title });
  admin = (await createToken(ctx, { name: 'admin', scope: 'admin' })).secret;
  writer = (await createToken(ctx, { name: 'writer', scope: 'write' })).secret;
});
afterAll(async () => {
  await s.stop();
  rmSync(away, { recursive: true, force: true });
});

describe('export_tasks', () => {
  it('answers the same JSONL over REST, MCP, the local CLI and a remote CLI', async () => {
    const local = await cairn(['export'], { CAIRN_DB: s.ws.db });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout.split('\n').filter(Boolean).length).toBeGreaterThan(4);

    const rest = await s.call('POST', '/api/v1/export', {}, bearer(admin));
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body).toMatchObject({ format: 'jsonl', projects: 1, tasks: 3 });
    expect(rest.body.jsonl).toBe(local.stdout);

    const remote = await cairn(['export', '--remote', s.url], { CAIRN_TOKEN: admin });
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stdout).toBe(local.stdout);

    const client = await connectV1({ db: s.ws.db, args: ['--toolsets', 'admin'] });
    try {
      const r = (await client.callTool({ name: 'export_tasks', arguments: {} })) as unknown as { structuredContent: { jsonl: string } };
      expect(r.structuredContent.jsonl).toBe(local.stdout);
    } finally {
      await client.close();
    }
  });

  it('writes a file on the server when asked, and a write token may not', async () => {
    const file = join(away, 'rest.jsonl');
    const refused = await s.call('POST', '/api/v1/export', { out: file }, bearer(writer));
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect(existsSync(file)).toBe(false);

    const written = await s.call('POST', '/api/v1/export', { out: file }, bearer(admin));
    expect(written.status).toBe(200);
    expect(written.body).toMatchObject({ out: file, tasks: 3 });
    expect(written.body).not.toHaveProperty('jsonl');
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(4);
  });
});

describe('import_tasks', () => {
  const backlog = () => {
    const file = join(away, `in-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(
      file,
      `${JSON.stringify({ id: 'bd-1', title: 'from beads', status: 'open', priority: 1, issue_type: 'task', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' })}\n`,
    );
    return file;
  };

  it('a write token is refused and nothing is imported; an admin token imports; a remote CLI imports', async () => {
    const file = backlog();
    const before = (await s.call('GET', '/api/v1/tasks?allProjects=true&limit=200', undefined, bearer(admin))).body.tasks.length;
    const refused = await s.call('POST', '/api/v1/import', { path: file, from: 'beads', project: 'BDS' }, bearer(writer));
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/admin/);
    expect((await s.call('GET', '/api/v1/tasks?allProjects=true&limit=200', undefined, bearer(admin))).body.tasks.length).toBe(before);

    const done = await s.call('POST', '/api/v1/import', { path: file, from: 'beads', project: 'BDS' }, bearer(admin));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ source: 'beads', tasks: { created: 1 } });

    const again = await cairn(['import', file, '--from', 'beads', '--project', 'BDS', '--remote', s.url, '--json'], { CAIRN_TOKEN: admin });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ source: 'beads', tasks: { created: 0, unchanged: 1 } });
  });

  it('a bad path is a clear error that changes nothing', async () => {
    const r = await s.call('POST', '/api/v1/import', { path: join(away, 'nothing-here') }, bearer(admin));
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('no such file or folder. Nothing was imported.');
  });
});
