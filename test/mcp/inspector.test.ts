/** The MCP Inspector's CLI (`mcp-inspector --cli`) against the built server: tools/list, a tools/call, resources/list. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { ENTRY, ROOT } from './helpers.js';

const INSPECTOR = `${ROOT}node_modules/@modelcontextprotocol/inspector/cli/build/cli.js`;
const run = promisify(execFile);
let ws: TempWorkspace;

beforeAll(async () => {
  ws = tempWorkspace('cairn-mcp-inspector-');
  const lib = openCairn({ db: ws.db, actor: 'setup' });
  await lib.call('create_project', { key: 'API', name: 'API' });
  await lib.call('create_task', { project: 'API', title: 'Inspect me' });
  await lib.close();
});
afterAll(() => ws?.cleanup());

// The timeouts bound a hang (three inspectors and three servers start at once on a loaded machine); they are no speed requirement.
const inspect = async (...args: string[]) => {
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', process.execPath, ENTRY, '--db', ws.db, ...args], { timeout: 100_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
};

describe.skipIf(!existsSync(INSPECTOR))('MCP Inspector CLI', () => {
  it('tools/list, tools/call and resources/list succeed', { timeout: 120_000 }, async () => {
    const [tools, called, resources] = await Promise.all([
      inspect('--method', 'tools/list'),
      inspect('--method', 'tools/call', '--tool-name', 'get_task', '--tool-arg', 'id=API-1'),
      inspect('--method', 'resources/list'),
    ]);
    expect((tools.tools as Array<{ name: string }>).map((t) => t.name)).toContain('next_tasks');
    expect(called.isError ?? false).toBe(false);
    expect((called.structuredContent as { task: { id: string } }).task.id).toBe('API-1');
    expect((resources.resources as Array<{ uri: string }>).map((r) => r.uri)).toEqual(expect.arrayContaining(['cairn://projects', 'cairn://tasks/API-1']));
  });
});
