/**
 * A PostgreSQL password never prints and is never written into configuration (issue 32 item 3):
 * mcp-config, init and doctor show the URL masked; generated host configuration names the password's
 * place (PGPASSWORD, ~/.pgpass) instead. On the postgres leg, against the run's real server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { onPostgres, pgWorkspaceUrl } from '../helpers/engine.js';
import { waitFor } from '../helpers/wait.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function harness(): CliHarness {
  const h = cliHarness({ useEnvDb: false });
  cleanups.push(h.cleanup);
  return h;
}

const FAKE = 'postgres://cairn:s3cret-Pw@db.example:5432/cairn?schema=team';

describe('generated host configuration never holds the password', () => {
  it('mcp-config for every host: the URL without its password, and a note saying where the server reads it', () => {
    const h = harness();
    for (const client of ['claude-code', 'claude-desktop', 'vscode', 'cursor', 'acp']) {
      for (const json of [false, true]) {
        const r = h.run(['mcp-config', '--client', client, '--db', FAKE, ...(json ? ['--json'] : [])]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout + r.stderr).not.toContain('s3cret-Pw');
        expect(r.stdout).toContain('postgres://cairn@db.example:5432/cairn?schema=team');
        expect(r.stderr).toContain('the server reads it from PGPASSWORD');
      }
    }
  });

  it('a password given as a URL parameter is left out too', () => {
    const h = harness();
    const r = h.run(['mcp-config', '--client', 'vscode', '--db', 'postgres://db.example/cairn?password=s3cret-Pw&schema=team']);
    expect(r.stdout + r.stderr).not.toContain('s3cret-Pw');
    expect(r.stdout).toContain('postgres://db.example/cairn?schema=team');
  });
});

describe.skipIf(!onPostgres)('PostgreSQL workspaces: init and doctor mask the password, doctor checks the server', () => {
  it('init prints the URL masked and init --agent writes .mcp.json without the password; the server then reads PGPASSWORD', () => {
    const h = harness();
    const url = pgWorkspaceUrl();
    expect(url).toMatch(/:\/\/[^:]+:[^@]+@/);
    const password = decodeURIComponent(/:\/\/[^:]+:([^@]+)@/.exec(url)![1]!);
    const init = h.run(['init', '--db', url, '--agent', 'claude-code']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(':***@');
    expect(init.stdout + init.stderr).not.toContain(`:${password}@`);
    expect(init.stderr).toContain('the server reads it from PGPASSWORD');
    const mcp = readFileSync(join(h.dir, '.mcp.json'), 'utf8');
    expect(mcp).not.toContain(`:${password}@`);
    const args = (JSON.parse(mcp) as { mcpServers: { cairn: { args: string[] } } }).mcpServers.cairn.args;
    const bare = args[args.indexOf('--db') + 1]!;
    expect(bare).not.toContain(`:${password}@`);
    // As the host would start it, with the password where the note says.
    const listed = h.run(['--db', bare, 'project', 'list', '--json'], { env: { PGPASSWORD: password } });
    expect(listed.code, listed.stderr).toBe(0);
    const json = h.run(['init', '--db', url, '--json']);
    expect(json.json().workspace).toContain(':***@');
  });

  it('doctor: reachable, schema, feed notifications and the processes connected now, without the password', async () => {
    const h = harness();
    const url = pgWorkspaceUrl();
    const password = decodeURIComponent(/:\/\/[^:]+:([^@]+)@/.exec(url)![1]!);
    let r = h.run(['doctor', '--db', url, '--json']);
    expect(r.code, r.stderr).toBe(0);
    let report = r.json();
    expect(JSON.stringify(report)).not.toContain(`:${password}@`);
    expect(report.checks.map((c: { name: string }) => c.name)).toEqual(['reachable', 'schema', 'feed', 'replicas']);
    expect(report.checks[1].detail).toContain('no Cairn schema');
    // A process serving live views keeps a connection listening on the feed: doctor counts it.
    const cairn = openCairn({ db: url, actor: 'doctor-test' });
    cleanups.push(() => cairn.close());
    await cairn.call('create_project', { key: 'DOC', name: 'Doc' });
    cairn.store.onCommit?.(() => undefined);
    await waitFor(() => /1 Cairn process connected now/.test(h.run(['doctor', '--db', url]).stdout), 'doctor to count the listening process', 15_000, 200);
    r = h.run(['doctor', '--db', url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ok +schema +version \d+ \(current\)/);
    expect(r.stdout).toMatch(/ok +feed +notifications on "cairn_cairn_test_[0-9a-f]+" arrive/);
    expect(r.stdout).not.toContain(`:${password}@`);
    report = h.run(['doctor', '--db', url.replace(`:${password}@`, ':wrong@'), '--json']);
    expect(report.code).not.toBe(0);
    expect(report.stdout + report.stderr).not.toContain(':wrong@');
    expect(report.stdout + report.stderr).toContain('FORBIDDEN');
  });
});
