/** The ade profile (seed 003) through a real MCP client over stdio: dependency handoffs between two repositories and plan documents (issue 16, item 3). */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { call, connectV1, connectV2, ok, ROOT } from '../mcp/helpers.js';

const BIN = join(ROOT, 'bin', 'cairn.js');

let base: string;
let api: string;
let core: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'cairn-ade-'));
  api = join(base, 'api');
  core = join(base, 'core-lib');
  for (const [dir, key, aliases] of [
    [api, 'API', []],
    [core, 'CORE', ['@a24z/core-library']],
  ] as const) {
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
        dependencyId: '@a24z/core-library',
        repositoryRoot: core,
        taskSummary: 'Expose ensureDocument',
        taskDetails: '## Need\nAPI calls it',
        priority: 'critical',
        tags: ['palace'],
        anchors: ['src/palace.ts', join(core, 'src', 'palace.ts')],
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

  it("with repositoryRoot, dependencyId may be that repository's git remote; a name it does not answer to is refused, never replaced by the root", async () => {
    execFileSync('git', ['-C', core, 'remote', 'add', 'origin', 'git@github.com:a24z/core.git']);
    const client = await connectV1({ args: ['--profile', 'ade'], cwd: api });
    try {
      const r = await ok(client, 'submit_dependency_task', { dependencyId: 'github.com/a24z/core', repositoryRoot: core, taskSummary: 'By remote', taskDetails: '' });
      expect(r.data).toMatchObject({ success: true, taskId: expect.stringMatching(/^CORE-\d+$/), repository: core });
      const wrong = await call(client, 'submit_dependency_task', { dependencyId: '@a24z/web', repositoryRoot: core, taskSummary: 'Wrong name', taskDetails: '' });
      expect(wrong.isError).toBe(true);
      const body = JSON.parse(wrong.text);
      expect(body).toMatchObject({ success: false, error: 'PROJECT_NOT_FOUND' });
      expect(body.message).toContain('a24z/core');
      expect(body.message).toContain('@a24z/core-library');
      expect(body.message).toContain('dependencyId: "CORE", repositoryRoot:');
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

/**
 * One workspace per repository, each registered on this machine (a registry file of the test's own):
 * a dependency id alone — package name, git remote slug, project key — finds its repository, and
 * get_dependency_task_doc finds the document from the task id or the dependency id.
 */
describe('ade by dependency id alone (the repository registry)', () => {
  let root: string;
  let registry: string;
  let repos: Record<'api' | 'core' | 'web', string>;
  const env = () => ({ CAIRN_REGISTRY: registry });
  const cairn = (cwd: string, args: string[]) => execFileSync(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env(), NO_COLOR: '1', CAIRN_ACTOR: 'tester' }, encoding: 'utf8' });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cairn-ade-registry-'));
    registry = join(root, 'config', 'repos.json');
    repos = { api: join(root, 'api'), core: join(root, 'core-lib'), web: join(root, 'web') };
    const made: Array<[string, string, string | undefined, string | undefined]> = [
      [repos.api, 'API', undefined, undefined],
      [repos.core, 'CORE', '@acme/core', 'git@github.com:acme/core-lib.git'],
      [repos.web, 'WEB', '@acme/web', 'https://github.com/acme/web-app'],
    ];
    for (const [dir, key, pkg, remote] of made) {
      mkdirSync(dir, { recursive: true });
      execFileSync('git', ['init', '-q', dir]);
      if (remote) execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', remote]);
      if (pkg) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: pkg, version: '1.0.0' }));
      // Created → registered: no alias is set anywhere; the package and remote are read from the repository.
      cairn(dir, ['init', '--key', key]);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('cairn init registers each repository with its package, remote slug and projects; cairn repos lists them', () => {
    const listed = JSON.parse(cairn(repos.api, ['repos', '--json']));
    expect(listed.registry).toBe(registry);
    expect(listed.repositories.map((r: { root: string }) => r.root)).toEqual([repos.api, repos.core, repos.web]);
    expect(listed.repositories[1]).toMatchObject({
      root: repos.core,
      db: join(repos.core, '.cairn', 'cairn.db'),
      package: '@acme/core',
      remote: 'acme/core-lib',
      projects: [{ key: 'CORE', aliases: [], root: repos.core }],
    });
    expect(listed.repositories[2]).toMatchObject({ package: '@acme/web', remote: 'acme/web-app' });
  });

  it('submit_dependency_task by package name, by remote slug (any spelling) and by project key lands in that repository', async () => {
    const client = await connectV2({ args: ['--profile', 'ade'], cwd: repos.api, env: env() });
    try {
      const byPackage = await ok(client, 'submit_dependency_task', { dependencyId: '@acme/core', taskSummary: 'Expose ensureDocument', taskDetails: 'API calls it', anchors: ['src/palace.ts'] });
      expect(byPackage.data).toEqual({ success: true, taskId: 'CORE-1', repository: repos.core, persistedOffline: false, message: expect.stringContaining('CORE-1') });
      for (const slug of ['acme/core-lib', 'https://github.com/acme/core-lib.git', 'git@github.com:acme/core-lib.git']) {
        expect((await ok(client, 'submit_dependency_task', { dependencyId: slug, taskSummary: `Via ${slug}`, taskDetails: '' })).data).toMatchObject({
          success: true,
          taskId: expect.stringMatching(/^CORE-\d+$/),
          repository: repos.core,
        });
      }
      expect((await ok(client, 'submit_dependency_task', { dependencyId: 'web', taskSummary: 'By key', taskDetails: '' })).data).toMatchObject({ taskId: 'WEB-1', repository: repos.web });
      const c = openCairn({ db: join(repos.core, '.cairn', 'cairn.db') });
      expect((await c.call('get_task', { id: 'CORE-1' })).task).toMatchObject({ title: 'Expose ensureDocument', anchors: ['src/palace.ts'], origin: `API @ ${repos.api}` });
      await c.close();
    } finally {
      await client.close();
    }
  });

  it('get_dependency_task_doc finds the document from taskId alone or with dependencyId', async () => {
    const client = await connectV1({ args: ['--profile', 'ade'], cwd: repos.api, env: env() });
    try {
      const doc = join(repos.core, '.cairn', 'docs', 'CORE-1.md');
      const missing = await call(client, 'get_dependency_task_doc', { taskId: 'CORE-1' });
      expect(JSON.parse(missing.text)).toMatchObject({ success: false, status: 'missing', documentPath: doc, repository: repos.core });
      expect((await ok(client, 'get_dependency_task_doc', { taskId: 'CORE-1', dependencyId: '@acme/core', requireExistingDoc: false })).data).toMatchObject({
        success: true,
        status: 'active',
        documentPath: doc,
      });
      expect(existsSync(doc)).toBe(true);
      expect((await ok(client, 'get_dependency_task_doc', { taskId: 'CORE-1', dependencyId: 'acme/core-lib' })).data).toMatchObject({ status: 'active', documentPath: doc });
    } finally {
      await client.close();
    }
  });

  it('an unknown dependencyId answers success: false naming the known repositories; nothing is created anywhere', async () => {
    const client = await connectV1({ args: ['--profile', 'ade'], cwd: repos.api, env: env() });
    try {
      const r = await call(client, 'submit_dependency_task', { dependencyId: 'left-pad', taskSummary: 'Nowhere', taskDetails: '' });
      expect(r.isError).toBe(true);
      const body = JSON.parse(r.text);
      expect(body).toMatchObject({ success: false, error: 'PROJECT_NOT_FOUND' });
      expect(body.message).toContain('Unknown target "left-pad"');
      expect(body.message).toContain(`@acme/core (${repos.core})`);
      expect(body.message).toContain(`@acme/web (${repos.web})`);
      for (const dir of Object.values(repos)) {
        const c = openCairn({ db: join(dir, '.cairn', 'cairn.db') });
        expect((await c.call('search_tasks', { query: 'Nowhere', allProjects: true })).results).toEqual([]);
        await c.close();
      }
    } finally {
      await client.close();
    }
  });

  it('an alias added after registration is found (the registry is re-read on a miss); cairn repos forget removes a repository', async () => {
    const web = openCairn({ db: join(repos.web, '.cairn', 'cairn.db') });
    await web.call('update_project', { key: 'WEB', aliases: ['storefront'] });
    await web.close();
    const client = await connectV1({ args: ['--profile', 'ade'], cwd: repos.api, env: env() });
    try {
      expect((await ok(client, 'submit_dependency_task', { dependencyId: 'storefront', taskSummary: 'By new alias', taskDetails: '' })).data).toMatchObject({
        success: true,
        taskId: expect.stringMatching(/^WEB-\d+$/),
      });
      expect(cairn(repos.api, ['repos', 'forget', '@acme/web'])).toContain(`Forgot ${repos.web}`);
      const gone = await call(client, 'submit_dependency_task', { dependencyId: '@acme/web', taskSummary: 'Forgotten', taskDetails: '' });
      expect(JSON.parse(gone.text)).toMatchObject({ success: false, error: 'PROJECT_NOT_FOUND' });
      expect(cairn(repos.web, ['repos', 'add'])).toContain(`Registered ${repos.web} (@acme/web)`);
      expect((await ok(client, 'submit_dependency_task', { dependencyId: '@acme/web', taskSummary: 'Back', taskDetails: '' })).data).toMatchObject({ success: true });
    } finally {
      await client.close();
    }
  });
});
