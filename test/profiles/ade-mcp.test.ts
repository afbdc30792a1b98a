/** The ade profile (seed 003) through a real MCP client over stdio: dependency handoffs between two repositories and plan documents (issue 16, item 3). */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { call, connectV1, connectV2, ok } from '../mcp/helpers.js';

let base: string;
let api: string;
let core: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'cairn-ade-'));
  api = join(base, 'api');
  core = join(base, 'core-lib');
  for (const [dir, key, aliases] of [[api, 'API', []], [core, 'CORE', ['@a24z/core-library']]] as const) {
    mkdirSync(join(dir, 'src'), { recursive: true });
    execFileSync('git', ['init', '-q', dir]);
    const c = openCairn({ db: join(dir, '.cairn', 'cairn.db') });
    await c.call('create_project', { key, name: key.toLowerCase(), root: dir, aliases: [...aliases] });
    await c.close();
  }
  writeFileSync(join(core, 'src', 'palace.ts'), '');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('ade profile over MCP', () => {
  it('lists the two seed tools under the server name principal-ade, with their schemas', async () => {
    const client = await connectV1({ args: ['--profile', 'ade'], cwd: api });
    try {
      expect(client.getServerVersion()?.name).toBe('principal-ade');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['submit_dependency_task', 'get_dependency_task_doc']);
      const submit = tools[0]!;
      expect(Object.keys(submit.inputSchema.properties ?? {})).toEqual(['dependencyId', 'repositoryRoot', 'taskSummary', 'taskDetails', 'priority', 'tags', 'anchors']);
      expect(submit.inputSchema.required).toEqual(['dependencyId', 'taskSummary', 'taskDetails']);
      await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/ade-tools.json');
    } finally {
      await client.close();
    }
  });

  it('submits a dependency task to another repository, then finds, creates and finds again its document', async () => {
    const client = await connectV2({ args: ['--profile', 'ade'], cwd: api });
    try {
      const sent = await ok(client, 'submit_dependency_task', {
        dependencyId: '@a24z/core-library', repositoryRoot: core, taskSummary: 'Expose ensureDocument',
        taskDetails: '## Need\nAPI calls it', priority: 'critical', tags: ['palace'], anchors: ['src/palace.ts', join(core, 'src', 'palace.ts')],
      });
      expect(sent.data).toEqual({ success: true, taskId: 'CORE-1', repository: core, persistedOffline: false, message: expect.stringContaining('CORE-1') });
      const c = openCairn({ db: join(core, '.cairn', 'cairn.db') });
      const { task } = await c.call('get_task', { id: 'CORE-1' });
      await c.close();
      expect(task).toMatchObject({ title: 'Expose ensureDocument', priority: 'urgent', labels: ['palace'], anchors: ['src/palace.ts'], origin: `API @ ${api}` });

      const doc = join(core, '.cairn', 'docs', 'CORE-1.md');
      const missing = await call(client, 'get_dependency_task_doc', { taskId: 'CORE-1', repositoryRoot: core });
      expect(missing.isError).toBe(true);
      expect(JSON.parse(missing.text)).toMatchObject({ success: false, taskId: 'CORE-1', status: 'missing', documentPath: doc });
      const made = await ok(client, 'get_dependency_task_doc', { taskId: 'CORE-1', repositoryRoot: core, requireExistingDoc: false });
      expect(made.data).toMatchObject({ success: true, status: 'active', documentPath: doc, repository: core });
      expect(existsSync(doc)).toBe(true);
      expect((await ok(client, 'get_dependency_task_doc', { taskId: 'CORE-1', repositoryRoot: core })).data).toMatchObject({ status: 'active', documentPath: doc });
    } finally {
      await client.close();
    }
  });

  it('falls back to the project rooted at repositoryRoot when dependencyId is no alias there', async () => {
    const client = await connectV1({ args: ['--profile', 'ade'], cwd: api });
    try {
      const r = await ok(client, 'submit_dependency_task', { dependencyId: 'github.com/a24z/core', repositoryRoot: core, taskSummary: 'By root', taskDetails: '' });
      expect(r.data).toMatchObject({ success: true, taskId: expect.stringMatching(/^CORE-\d+$/) });
    } finally {
      await client.close();
    }
  });

  it('errors are isError results in the seed shape: traversal anchors, unknown dependencies, bad input', async () => {
    const client = await connectV1({ args: ['--profile', 'ade'], cwd: api });
    try {
      const escape = await call(client, 'submit_dependency_task', { dependencyId: '@a24z/core-library', repositoryRoot: core, taskSummary: 'x', taskDetails: '', anchors: ['../api/.env'] });
      expect(escape.isError).toBe(true);
      expect(JSON.parse(escape.text)).toMatchObject({ success: false, error: 'ANCHOR_OUTSIDE_REPOSITORY' });
      const unknown = await call(client, 'submit_dependency_task', { dependencyId: 'left-pad', taskSummary: 'x', taskDetails: '' });
      expect(unknown.isError).toBe(true);
      expect(JSON.parse(unknown.text)).toMatchObject({ success: false, error: 'PROJECT_NOT_FOUND' });
      expect(JSON.parse(unknown.text).message).toContain('repositoryRoot');
      const bad = await call(client, 'submit_dependency_task', { dependencyId: 'x', taskSummary: 'x', taskDetails: '', priority: 'urgent' });
      expect(JSON.parse(bad.text)).toMatchObject({ success: false, error: 'VALIDATION_ERROR' });
    } finally {
      await client.close();
    }
  });
});
