/** Anchors (issue 32 item 6) and link URLs (item 4) are checked on every surface: create, update and import. */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectCode } from '../helpers/core.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn>;
let root: string;
beforeEach(async () => {
  c = tempCairn();
  root = realpathSync(c.ws.dir);
  mkdirSync(join(root, 'src'), { recursive: true });
  await c.call('create_project', { key: 'API', name: 'API', root });
  await c.call('create_project', { key: 'LOOSE', name: 'No root' });
});
afterEach(() => c.done());

describe('anchors on create_task and update_task', () => {
  it('refuses paths that climb out of the repository or lie elsewhere, and nothing is created', async () => {
    for (const project of ['API', 'LOOSE']) {
      for (const anchor of ['../../../etc/passwd', '/etc/shadow', 'src/../../x']) {
        const e = await expectCode(c.call('create_task', { project, title: 'T', anchors: [anchor] }), 'ANCHOR_OUTSIDE_REPOSITORY');
        expect(e.message).toContain(`Anchor "${anchor}" is outside`);
      }
    }
    expect((await c.call('list_tasks', {})).tasks).toEqual([]);
  });

  it('refuses a NUL or a line break inside an anchor instead of rewriting it', async () => {
    for (const anchor of ['src/x.ts\u0000../../etc/passwd', 'src/a\nb.ts']) {
      const e = await expectCode(c.call('create_task', { project: 'API', title: 'T', anchors: [anchor] }), 'VALIDATION_ERROR');
      expect(e.message).toContain('anchors must not contain control characters');
    }
    expect((await c.call('list_tasks', {})).tasks).toEqual([]);
  });

  it('stores anchors repo-relative: an absolute path inside the project root is made relative', async () => {
    const t = (await c.call('create_task', { project: 'API', title: 'T', anchors: [join(root, 'src', 'index.ts'), './src/a.ts', 'src/a.ts'] })).task;
    expect(t.anchors).toEqual(['src/index.ts', 'src/a.ts']);
    const e = await expectCode(c.call('update_task', { id: t.id, anchors: ['/etc/shadow'] }), 'ANCHOR_OUTSIDE_REPOSITORY');
    expect(e.message).toContain('"/etc/shadow"');
    expect((await c.call('get_task', { id: t.id })).task).toMatchObject({ anchors: ['src/index.ts', 'src/a.ts'], version: 1 });
    expect((await c.call('update_task', { id: t.id, anchors: ['lib/b.ts'] })).task.anchors).toEqual(['lib/b.ts']);
  });
});

describe('link fields hold only safe URLs (issue 32 item 4)', () => {
  it('prUrl is an http(s) URL as the URL parser reads it; issue is a reference or a safe URL', async () => {
    for (const prUrl of ['javascript:alert(1)', '\u0001javascript:alert(1)', ' javascript:x', 'data:text/html,x', 'ftp://x.example/p', 'not a url']) {
      const e = await expectCode(c.call('create_task', { project: 'API', title: 'T', links: { prUrl } }), 'VALIDATION_ERROR');
      expect(e.message).toContain('prUrl must be an http or https URL');
    }
    for (const issue of ['javascript:alert(1)', '\u000ejavascript:x', 'data:text/html,x', 'ftp://x.example/1']) {
      const e = await expectCode(c.call('create_task', { project: 'API', title: 'T', links: { issue } }), 'VALIDATION_ERROR');
      expect(e.message).toContain('issue must be a reference');
    }
    expect((await c.call('list_tasks', {})).tasks).toEqual([]);
    const t = (await c.call('create_task', { project: 'API', title: 'T', links: { prUrl: 'https://github.com/acme/api/pull/12', issue: 'acme/api#42' } })).task;
    for (const issue of ['JIRA:ABC-1', 'https://tracker.example/1', 'mailto:bugs@acme.example']) {
      expect((await c.call('update_task', { id: t.id, links: { issue } })).task.links.issue).toBe(issue);
    }
    await expectCode(c.call('update_task', { id: t.id, links: { prUrl: 'javascript:alert(1)' } }), 'VALIDATION_ERROR');
    expect((await c.call('get_task', { id: t.id })).task.links.prUrl).toBe('https://github.com/acme/api/pull/12');
  });
});
