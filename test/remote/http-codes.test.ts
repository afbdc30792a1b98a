/**
 * One table says what each HTTP-only error code is (src/ops/http-codes.ts): the server answers it
 * with that status, and a remote client reports it as the core code the table names. A real CLI is
 * pointed (CAIRN_URL) at a server that answers every request with one such error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_ONLY_AS, HTTP_ONLY_CODES, type HttpOnlyCode } from '../../src/ops/http-codes.js';
import { cli } from '../handoff/remote-harness.js';

let server: Server;
let url: string;
let answer: HttpOnlyCode = 'UNAUTHORIZED';
const dir = mkdtempSync(join(tmpdir(), 'cairn-http-codes-'));

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(HTTP_ONLY_CODES[answer], { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: answer, message: `answered ${answer}`, suggestions: [] } }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTP-only error codes seen by a remote client', () => {
  it.each(Object.keys(HTTP_ONLY_CODES) as HttpOnlyCode[])('%s is reported as the core code the table names, keeping the server code', async (code) => {
    answer = code;
    const run = await cli(dir, url, ['list', '--project', 'API', '--json']);
    expect(run.code).not.toBe(0);
    const out = JSON.parse(run.stdout || run.stderr) as { error: { code: string; message: string; details?: { serverCode?: string; status?: number } } };
    expect(out.error.code).toBe(HTTP_ONLY_AS[code]);
    expect(out.error.details).toMatchObject({ serverCode: code, status: HTTP_ONLY_CODES[code] });
  });
});
