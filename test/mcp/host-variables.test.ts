/**
 * A committed host config names the workspace as `${workspaceFolder}/.cairn/cairn.db`. A host that
 * expands it passes a path; one that does not passes the text itself, and the server then finds the
 * workspace from the folder it starts in, as with no --db, instead of failing or creating a file there.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { onPostgres } from '../helpers/engine.js';

const ENTRY = resolve(import.meta.dirname, '../../dist/mcp/stdio-entry.js');
let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());

describe.skipIf(onPostgres)('an unexpanded host variable in --db', () => {
  it('is read as "no --db": the workspace is found from the folder the host started the server in', async () => {
    ws = tempWorkspace('cairn-hostvar-');
    const cairn = openCairn({ db: ws.db, actor: 'setup' });
    await cairn.call('create_project', { key: 'API', name: 'API', root: ws.dir });
    await cairn.close();
    const client = new Client({ name: 'host', version: '1' });
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ENTRY, '--db', '${workspaceFolder}/.cairn/cairn.db'],
      cwd: ws.dir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'list_projects', arguments: {} })) as { content: Array<{ text: string }>; isError?: boolean };
      expect(r.isError).toBeFalsy();
      expect(r.content[0]!.text).toContain('API');
      expect(stderr.join('')).toContain('the host did not expand its variable');
      expect(existsSync(join(ws.dir, '${workspaceFolder}'))).toBe(false);
    } finally {
      await client.close();
    }
  });
});
