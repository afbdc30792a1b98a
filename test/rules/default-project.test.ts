/**
 * One rule for the default project (src/ops/default-project.ts), and every surface agrees on it:
 * the CLI, MCP over stdio (with and without client roots) and the in-process tools pick the same
 * project from the same place, and a blank CAIRN_PROJECT or --project counts as absent.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTools } from '../../src/agent/index.js';
import { systemClock } from '../../src/core/ports.js';
import { openCairn, type Cairn } from '../../src/index.js';
import { resolveDefaultProject } from '../../src/ops/default-project.js';
import { cliHarness, type CliHarness } from '../cli/cli-harness.js';
import { connectV1 } from '../mcp/helpers.js';

let cli: CliHarness;
let c: Cairn;
let api: string;
let web: string;

beforeAll(async () => {
  cli = cliHarness();
  api = join(cli.dir, 'api');
  web = join(cli.dir, 'web');
  mkdirSync(join(api, 'src'), { recursive: true });
  mkdirSync(web, { recursive: true });
  c = openCairn({ db: cli.db, actor: 'tester' });
  await c.call('create_project', { key: 'API', name: 'API', root: api });
  await c.call('create_project', { key: 'WEB', name: 'Web', root: web });
});
afterAll(async () => {
  await c.close();
  cli.cleanup();
});

describe('the order of the sources', () => {
  const ctx = () => ({ store: c.store, clock: systemClock, actor: 'tester' });
  it('explicit, then client roots, then CAIRN_PROJECT, then the working directory; blanks are absent', async () => {
    const inApi = join(api, 'src');
    expect(await resolveDefaultProject(ctx(), { explicit: ' WEB ', roots: [inApi], env: 'API', cwd: inApi })).toBe('WEB');
    expect(await resolveDefaultProject(ctx(), { explicit: '  ', roots: [web], env: 'API', cwd: inApi })).toBe('WEB');
    expect(await resolveDefaultProject(ctx(), { roots: [cli.dir], env: ' WEB ', cwd: inApi })).toBe('WEB');
    expect(await resolveDefaultProject(ctx(), { env: '', cwd: inApi })).toBe('API');
    expect(await resolveDefaultProject(ctx(), { env: ' ', cwd: cli.dir })).toBeUndefined();
  });
});

describe('every surface picks the same project', () => {
  const blank = { CAIRN_PROJECT: '   ' };

  it('from the working directory, with a blank CAIRN_PROJECT', async () => {
    const viaCli = cli.ok<{ task: { id: string } }>(['add', 'from the cli'], { cwd: join(api, 'src'), env: blank });
    expect(viaCli.task.id).toMatch(/^API-/);

    const client = await connectV1({ db: cli.db, cwd: join(api, 'src'), env: blank });
    try {
      const r = (await client.callTool({ name: 'create_task', arguments: { title: 'from mcp' } })) as unknown as { structuredContent: { task: { id: string } } };
      expect(r.structuredContent.task.id).toMatch(/^API-/);
    } finally {
      await client.close();
    }
  });

  it("from the MCP client's roots, over the working directory", async () => {
    const client = await connectV1({ db: cli.db, cwd: join(api, 'src') }, { roots: [web] });
    try {
      const r = (await client.callTool({ name: 'create_task', arguments: { title: 'from a root' } })) as unknown as { structuredContent: { task: { id: string } } };
      expect(r.structuredContent.task.id).toMatch(/^WEB-/);
    } finally {
      await client.close();
    }
  });

  it('a blank --project is no project: the CLI asks for one, the tools write nowhere', async () => {
    const refused = cli.run(['add', 'nowhere', '--project', ' '], { cwd: cli.dir, env: blank });
    expect(refused.code).not.toBe(0);
    const tools = createTools({ db: cli.db, project: '  ', actor: 'tester' });
    try {
      const create = tools.tools.find((t) => t.name === 'create_task')!;
      const out = (await create.call({ title: 'no project' })) as { isError?: boolean };
      expect(out.isError).toBe(true);
    } finally {
      await tools.close();
    }
  });
});
