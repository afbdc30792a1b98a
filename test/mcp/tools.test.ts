/** Every tool and every error code through both SDK clients (v1 on 2025-11-25, v2 on 2026-07-28) over real stdio, against the built server. */
import { cpSync, existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPS } from '../../src/ops/index.js';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace.js';
import { onPostgres } from '../helpers/engine.js';
import { call, connectV1, connectV2, inOtherProcess, ok, ROOT, type ServerArgs } from './helpers.js';

type TestClient = {
  listTools(): Promise<{ tools: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> }>;
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
};

describe.each(['v1', 'v2'] as const)('%s client', (kind) => {
  const connect = (s: ServerArgs): Promise<TestClient> => (kind === 'v1' ? connectV1(s) : connectV2(s)) as Promise<TestClient>;
  let ws: TempWorkspace;
  let c: TestClient;
  // Tools each case calls itself (setup calls do not count); checked once every case has run.
  const exercised = new Set<string>();
  const run = async (name: string, args: Record<string, unknown> = {}) => {
    exercised.add(name);
    return call(c, name, args);
  };
  const must = async (name: string, args: Record<string, unknown> = {}) => {
    exercised.add(name);
    return ok(c, name, args);
  };
  const expectCode = async (code: string, name: string, args: Record<string, unknown>) => {
    const r = await run(name, args);
    expect(r.isError, `${name} ${JSON.stringify(args)} → ${r.text}`).toBe(true);
    expect(r.text.startsWith(`${code}: `), r.text).toBe(true);
    return r.text;
  };

  // Each case gets its own workspace and server, and builds the state it needs with `given`: no case
  // depends on which cases ran before it, or in what order.
  beforeEach(async () => {
    ws = tempWorkspace('cairn-mcp-tools-');
    c = await connect({ db: ws.db, args: ['--toolsets', 'all'] });
    // With the tool list cached, the client checks every structuredContent against the advertised outputSchema.
    await c.listTools();
  });
  afterEach(async () => {
    await c?.close();
    ws?.cleanup();
  });

  /** A call that builds state for a case: it must succeed, and it does not count as exercising the tool. */
  const setup = (name: string, args: Record<string, unknown> = {}) => ok(c, name, args);
  /**
   * The workspace grows through these stages, each on top of the ones before it. A case names the
   * last stage it needs; the ids they create (API-1…API-3, then API-4…API-8 for the pages) are the
   * ones the cases refer to.
   */
  const STAGES = {
    project: async () => {
      await setup('create_project', { key: 'API', name: 'API server', description: 'Backend' });
    },
    // API-1: a long description, a checklist, labels auth and backend, assigned.
    login: async () => {
      await setup('create_task', { project: 'API', title: 'Login endpoint', description: 'word '.repeat(1000), priority: 'high', labels: ['auth'], checklist: ['route', 'tests'] });
      await setup('update_task', { id: 'API-1', expectedVersion: 1, assignee: 'agent:a', addLabels: ['backend'] });
    },
    // API-2 done (it blocked API-1), API-3 waiting on API-1, API-1 claimed.
    deps: async () => {
      await setup('create_task', { project: 'API', title: 'Session store' });
      await setup('create_task', { project: 'API', title: 'Logout', blockedBy: ['API-1'] });
      await setup('add_dependency', { taskId: 'API-1', blockedBy: 'API-2' });
      await setup('remove_dependency', { taskId: 'API-1', blockedBy: 'API-2' });
      await setup('add_dependency', { taskId: 'API-1', blockedBy: 'API-2' });
      await setup('complete_task', { id: 'API-2', comment: 'Implemented with Redis' });
      await setup('claim_task', { id: 'API-1' });
    },
    // API-1 claimed again for 10 minutes, checklist item 0 checked and a third added, a research comment.
    worked: async () => {
      await setup('release_task', { id: 'API-1' });
      await setup('claim_task', { id: 'API-1', leaseSeconds: 600 });
      await setup('update_checklist', {
        id: 'API-1',
        ops: [
          { op: 'check', index: 0 },
          { op: 'add', text: 'docs' },
        ],
      });
      await setup('add_comment', { id: 'API-1', body: 'Found the OAuth quirk', kind: 'research' });
    },
    // API-3 archived, restored, deleted, restored, deleted and purged; project OLD archived.
    admin: async () => {
      await setup('archive_task', { id: 'API-3' });
      await setup('archive_task', { id: 'API-3', restore: true });
      await setup('delete_task', { id: 'API-3' });
      await setup('restore_task', { id: 'API-3' });
      await setup('delete_task', { id: 'API-3' });
      await setup('purge_task', { id: 'API-3', confirm: true });
      await setup('update_project', { key: 'API', description: 'The backend' });
      await setup('create_project', { key: 'OLD', name: 'Old' });
      await setup('archive_project', { key: 'OLD' });
    },
    // API-4…API-8: "Page 0"…"Page 4".
    pages: async () => {
      for (let i = 0; i < 5; i++) await setup('create_task', { project: 'API', title: `Page ${i}` });
    },
  };
  const given = async (last: keyof typeof STAGES) => {
    for (const [name, stage] of Object.entries(STAGES)) {
      await stage();
      if (name === last) return;
    }
  };

  // Every tool is exercised by some case. A hook, not a case, so it holds whatever order the cases
  // ran in; it only speaks for a run in which every case ran and passed (not a filtered one).
  afterAll(({}, suite) => {
    type Node = { type: string; tasks?: Node[]; result?: { state: string } };
    const cases = (n: Node): Node[] => (n.type === 'suite' ? (n.tasks ?? []).flatMap(cases) : [n]);
    if (!cases(suite as unknown as Node).every((t) => t.result?.state === 'pass')) return;
    expect(OPS.map((o) => o.name).filter((n) => !exercised.has(n))).toEqual([]);
  });

  describe('a missing database', () => {
    it('answers reads empty with a hint, and the first write creates it', async () => {
      const projects = await must('list_projects');
      expect(existsSync(ws.db)).toBe(false);
      expect(projects.text).toMatch(/^No projects yet: create_project/);
      expect(projects.data).toEqual({ projects: [] });
      const board = await must('board_overview');
      expect(board.text).toMatch(/empty: create_task/);
      const created = await must('create_project', { key: 'API', name: 'API server', description: 'Backend' });
      expect(created.text).toContain('## API: API server');
      expect((created.data.project as { key: string }).key).toBe('API');
    });
  });

  describe('tools', () => {
    it('create_task, get_task, update_task, list_tasks with truncation of long text', async () => {
      await given('project');
      const long = 'word '.repeat(1000);
      const a = await must('create_task', { project: 'API', title: 'Login endpoint', description: long, priority: 'high', labels: ['auth'], checklist: ['route', 'tests'] });
      const task = a.data.task as { id: string; blockedBy: string[]; blocks: string[]; children: string[]; isReady: boolean; description: string };
      expect(task.id).toBe('API-1');
      for (const k of ['blockedBy', 'blocks', 'children', 'isReady'] as const) expect(task).toHaveProperty(k);
      expect(task.description).toBe(long);
      expect(a.text).toMatch(/… \[cut: \d+ more characters; read resource cairn:\/\/tasks\/API-1/);
      expect(a.text.length).toBeLessThan(3000);
      const got = await must('get_task', { id: 'api-1' });
      expect(got.text).toContain('Checklist (0/2)');
      const up = await must('update_task', { id: 'API-1', expectedVersion: 1, assignee: 'agent:a', addLabels: ['backend'] });
      expect((up.data.task as { version: number }).version).toBe(2);
      const listed = await must('list_tasks', {});
      expect(listed.text).toContain('API-1 [todo, high] Login endpoint · @agent:a');
      expect(listed.data).toMatchObject({ total: 1, nextCursor: null });
    });

    it('dependencies, next_tasks with the blocked hint, complete_task with nowReady', async () => {
      await given('login');
      await must('create_task', { project: 'API', title: 'Session store' });
      await must('create_task', { project: 'API', title: 'Logout', blockedBy: ['API-1'] });
      const dep = await must('add_dependency', { taskId: 'API-1', blockedBy: 'API-2' });
      expect((dep.data.task as { blockedBy: string[] }).blockedBy).toEqual(['API-2']);
      expect(dep.text).toContain('blockedBy API-2');
      const removed = await must('remove_dependency', { taskId: 'API-1', blockedBy: 'API-2' });
      expect((removed.data.task as { blockedBy: string[] }).blockedBy).toEqual([]);
      await must('add_dependency', { taskId: 'API-1', blockedBy: 'API-2' });
      const next = await must('next_tasks', {});
      expect((next.data.tasks as Array<{ id: string }>).map((t) => t.id)).toEqual(['API-2']);
      const done = await must('complete_task', { id: 'API-2', comment: 'Implemented with Redis' });
      expect(done.data.nowReady).toEqual(['API-1']);
      expect(done.text).toContain('Now ready: API-1');
      await must('claim_task', { id: 'API-1' });
      // API-3 waits on API-1, which is claimed: the queue is empty and says why.
      const empty = await must('next_tasks', {});
      expect(empty.text).toBe('No ready tasks. 1 task is blocked by API-1; see get_task API-1 and finish or unblock it.');
      expect(empty.data).toEqual({ tasks: [], hasMore: false, blocked: { count: 1, topBlockers: ['API-1'] } });
    });

    it('claim, release, checklist, comments, search, board', async () => {
      await given('deps');
      const released = await must('release_task', { id: 'API-1' });
      expect((released.data.task as { claim: unknown }).claim).toBeNull();
      const next = await must('claim_next', { project: 'API' });
      expect((next.data.task as { id: string }).id).toBe('API-1');
      expect((await must('claim_next', { project: 'API' })).text).toMatch(/^No ready task to claim/);
      // Claiming again is how the holder renews.
      const claimed = await must('claim_task', { id: 'API-1', leaseSeconds: 600 });
      expect(claimed.text).toContain('claimed by agent until');
      const cl = await must('update_checklist', {
        id: 'API-1',
        ops: [
          { op: 'check', index: 0 },
          { op: 'add', text: 'docs' },
        ],
      });
      expect(cl.text).toContain('Checklist (1/3)');
      const cm = await must('add_comment', { id: 'API-1', body: 'Found the OAuth quirk', kind: 'research' });
      expect(cm.text).toContain('agent (research');
      const found = await must('search_tasks', { query: 'oauth' });
      expect(found.text).toMatch(/^1 match:\n- API-1 .*\n {2}matched comments/);
      const nothing = await must('search_tasks', { query: 'zebra' });
      expect(nothing.text).toMatch(/^No tasks match "zebra"/);
      const board = await must('board_overview', { project: 'API' });
      expect(board.text).toMatch(/^Board API: 3 tasks, 1 done/);
      expect(board.text).toContain('In progress: agent: API-1');
    });

    it('board_overview says how many cards it left out of a lane and how to list them, with urgent work listed first', async () => {
      await given('project');
      for (let i = 1; i <= 8; i++) await must('create_task', { project: 'API', title: `Task ${i}`, priority: i === 8 ? 'urgent' : 'none' });
      const board = await must('board_overview', { project: 'API' });
      const todo = board.text.split('\n').filter((l) => /^ {2}/.test(l));
      expect(todo[0]).toMatch(/^ {2}- API-8 \[urgent\] Task 8/);
      expect(todo).toHaveLength(6);
      expect(todo[5]).toBe('  … +3 more (list_tasks {status: "todo", project: "API"} lists them all)');
      const lane = (board.data.lanes as Array<{ status: string; count: number; cards: Array<{ id: string }> }>).find((l) => l.status === 'todo')!;
      expect([lane.count, lane.cards.length, lane.cards[0]!.id]).toEqual([8, 5, 'API-8']);
    });

    it('projects, history toolset and admin ops', async () => {
      await given('worked');
      expect((await must('get_project', { key: 'api' })).text).toContain('statuses: backlog (backlog)');
      expect((await must('list_projects')).text).toMatch(/^1 project:\n- API: API server · 3 tasks/);
      const hist = await must('task_history', { id: 'API-1' });
      expect(hist.text).toMatch(/^History of API-1 \(\d+ events\):\n- #\d+ .* task\.created API-1/);
      expect((await must('get_progress', { project: 'API' })).data).toHaveProperty('byPriority');
      expect((await must('archive_task', { id: 'API-3' })).text).toContain('archived at');
      await must('archive_task', { id: 'API-3', restore: true });
      await must('delete_task', { id: 'API-3' });
      expect((await must('list_tasks', { deleted: true })).text).toContain('API-3');
      await must('restore_task', { id: 'API-3' });
      await must('delete_task', { id: 'API-3' });
      expect((await must('purge_task', { id: 'API-3', confirm: true })).text).toBe('Purged API-3; it cannot be restored.');
      expect((await must('list_labels', {})).text).toBe('Labels: auth (1), backend (1)');
      expect((await must('changes_since', { since: 0, limit: 2 })).text).toMatch(/More: call changes_since with since: \d+/);
      await must('update_project', { key: 'API', description: 'The backend' });
      await must('create_project', { key: 'OLD', name: 'Old' });
      expect((await must('archive_project', { key: 'OLD' })).text).toContain('(archived)');
    });

    it('handoffs: submit_handoff to another project by alias (once per idempotency key), get_task_document writes and finds the shell', async () => {
      await given('project');
      await setup('create_project', { key: 'WEB', name: 'Web app', root: ws.dir, aliases: ['web-app'] });
      const sent = await must('submit_handoff', { target: 'web-app', title: 'Expose the login API', details: 'Needed by the web app', priority: 'high', idempotencyKey: 'k-1', from: 'API' });
      expect(sent.data).toMatchObject({ taskId: 'WEB-1', persistedOffline: false });
      expect(
        (await must('submit_handoff', { target: 'web-app', title: 'Expose the login API', details: 'Needed by the web app', priority: 'high', idempotencyKey: 'k-1', from: 'API' })).data,
      ).toMatchObject({ taskId: 'WEB-1' });
      expect((await must('get_task', { id: 'WEB-1' })).data.task).toMatchObject({ title: 'Expose the login API', priority: 'high' });
      expect((await must('get_task_document', { id: 'WEB-1' })).data).toMatchObject({ status: 'missing' });
      const doc = await must('get_task_document', { id: 'WEB-1', requireExisting: false });
      expect(doc.data).toMatchObject({ documentPath: join(realpathSync(ws.dir), '.cairn', 'docs', 'WEB-1.md') });
      expect(existsSync(doc.data.documentPath as string)).toBe(true);
      expect((await must('get_task_document', { id: 'WEB-1' })).data.status).not.toBe('missing');
    });

    it('paginates with a cursor and says how many more', async () => {
      await given('admin');
      for (let i = 0; i < 5; i++) await must('create_task', { project: 'API', title: `Page ${i}` });
      const first = await must('list_tasks', { project: 'API', limit: 3, sort: 'created' });
      expect(first.text).toMatch(/^3 of 6 tasks:/);
      const m = /3 more: call list_tasks again with the same arguments and cursor: "([^"]+)"/.exec(first.text);
      expect(m).not.toBeNull();
      const second = await must('list_tasks', { project: 'API', limit: 3, sort: 'created', cursor: m![1] });
      expect(second.data).toMatchObject({ total: 6, nextCursor: null });
      const ids = [...(first.data.tasks as Array<{ id: string }>), ...(second.data.tasks as Array<{ id: string }>)].map((t) => t.id);
      expect(new Set(ids).size).toBe(6);
    });

    it('check_paths names the claim that reserves a path; checkpoint_task hands on to the next claim', async () => {
      await given('project');
      await setup('create_task', { project: 'API', title: 'Users endpoint', touches: ['src/api/**'] });
      await setup('create_task', { project: 'API', title: 'Parser', touches: ['src/parser.ts'] });
      await inOtherProcess(ws.db, "await cairn.call('claim_task', { id: 'API-1' })");
      const paths = await must('check_paths', { paths: ['src/api/users.ts', 'README.md'] });
      expect(paths.data).toMatchObject({ held: [{ path: 'src/api/users.ts', reserved: 'src/api/**', task: 'API-1', holder: 'cli' }], free: ['README.md'] });
      expect(paths.text).toContain('API-1');
      await setup('claim_task', { id: 'API-2', leaseSeconds: 60 });
      const saved = await must('checkpoint_task', { id: 'API-2', summary: 'Tokenizer done', next: 'Handle tabs', head: 'abc1234', questions: ['Keep CRLF?'] });
      expect(saved.data).toMatchObject({ task: { checkpoint: { summary: 'Tokenizer done', next: 'Handle tabs', head: 'abc1234', questions: ['Keep CRLF?'] } } });
      await setup('release_task', { id: 'API-2' });
      const next = await setup('claim_task', { id: 'API-2' });
      expect(next.text).toContain('Tokenizer done');
      expect(next.data).toMatchObject({ task: { checkpoint: { summary: 'Tokenizer done' } } });
    });

    it('link_source serves a DevPlanner workspace in place, list_links says how it stands, unlink_source lets it go', async () => {
      const planner = join(ws.dir, 'planner');
      cpSync(join(ROOT, 'test', 'fixtures', 'import', 'devplanner'), planner, { recursive: true });
      if (onPostgres) {
        // A shared PostgreSQL workspace has no machine of its own to hold the files.
        await expectCode('VALIDATION_ERROR', 'link_source', { path: planner });
        expect((await must('list_links')).data).toEqual({ links: [] });
        await expectCode('VALIDATION_ERROR', 'unlink_source', { path: planner });
        return;
      }
      const linked = await must('link_source', { path: planner });
      expect(linked.text).toBe(`Linked ${realpathSync(planner)} (devplanner): 4 records in MM · in sync`);
      expect((await must('list_links')).data).toMatchObject({ links: [{ kind: 'devplanner', projects: ['MM'], records: 4, state: 'in sync', writable: true }] });
      expect((await must('list_tasks', { project: 'MM' })).text).toContain('User Authentication');
      await expectCode('VALIDATION_ERROR', 'link_source', { path: join(ws.dir, 'nowhere') });
      expect((await must('unlink_source', { path: 'MM' })).text).toContain('Unlinked');
      expect((await must('list_links')).data).toEqual({ links: [] });
    });

    it('create_token shows its secret once, list_tokens never does, revoke_token keeps it listed as revoked', async () => {
      expect((await must('list_tokens')).text).toBe('No tokens: create_token {name, scope} makes one.');
      const made = await must('create_token', { name: 'ci-bot', scope: 'read' });
      const secret = (made.data as { secret: string }).secret;
      expect(made.text).toMatch(/^Created token "ci-bot" \(read, every project, cairn_\S+…, last used never\)\. Its secret, shown this once/);
      expect(made.text).toContain(secret);
      await expectCode('TOKEN_EXISTS', 'create_token', { name: 'ci-bot' });
      const listed = await must('list_tokens');
      expect(listed.data).toMatchObject({ tokens: [{ name: 'ci-bot', scope: 'read', projects: null, revokedAt: null }] });
      expect(JSON.stringify(listed)).not.toContain(secret);
      expect((await must('revoke_token', { token: 'ci-bot' })).text).toMatch(/^Revoked token "ci-bot" .*: requests with it get 401\.$/);
      await expectCode('TOKEN_NOT_FOUND', 'revoke_token', { token: 'ci-bot' });
      expect((await must('list_tokens')).data).toEqual({ tokens: [] });
      expect((await must('list_tokens', { includeRevoked: true })).data).toMatchObject({ tokens: [{ name: 'ci-bot', revokedAt: expect.any(String) }] });
    });

    it('export_tasks answers the JSONL; import_tasks reads it back and duplicates nothing, newer work kept', async () => {
      await must('create_project', { key: 'EXP', name: 'Export me' });
      const { task } = (await must('create_task', { project: 'EXP', title: 'travels' })).data as { task: { id: string } };
      const exported = await must('export_tasks', { project: 'EXP' });
      const jsonl = (exported.data as { jsonl: string }).jsonl;
      expect(exported.text).toBe(`Exported 1 project(s), 1 task(s), 0 comment(s), ${(exported.data as { events: number }).events} event(s):\n${jsonl}`);
      const file = join(mkdtempSync(join(tmpdir(), 'cairn-mcp-export-')), 'exp.jsonl');
      writeFileSync(file, jsonl);
      await must('update_task', { id: task.id, title: 'renamed since' });
      const imported = await must('import_tasks', { path: file });
      expect(imported.text).toMatch(/^Imported from cairn: 0 task\(s\) created, 0 updated, 1 left alone\.\nInto existing projects: EXP/);
      expect(((await must('get_task', { id: task.id })).data as { task: { title: string } }).task.title).toBe('renamed since');
      await expectCode('VALIDATION_ERROR', 'import_tasks', { path: join(file, 'nothing') });
    });
  });

  describe('fields', () => {
    it('lists are compact by default; fields adds full-task fields to each summary', async () => {
      await given('pages');
      const compact = await must('list_tasks', { project: 'API', limit: 1, sort: 'id' });
      expect(compact.data.tasks as object[]).toEqual([expect.not.objectContaining({ description: expect.anything() })]);
      const more = await must('list_tasks', { project: 'API', limit: 1, sort: 'id', fields: ['description', 'checklist', 'comments'] });
      const t = (more.data.tasks as Array<Record<string, unknown>>)[0]!;
      expect(t).toMatchObject({ id: 'API-1', description: expect.stringContaining('word'), checklist: expect.any(Array), comments: expect.any(Array) });
      expect(more.text).toMatch(/\n {2}description: word word .*… \[cut: \d+ more characters; get_task \{id: "API-1"\} has the rest\]/);
      expect(more.text).toContain('checklist: [x] 0. route');
      const found = await must('search_tasks', { query: 'oauth', fields: ['comments'] });
      expect((found.data.results as Array<{ task: { comments: unknown[] } }>)[0]!.task.comments.length).toBe(1);
      const next = await must('next_tasks', { fields: ['anchors'] });
      expect((next.data.tasks as Array<Record<string, unknown>>).every((x) => Array.isArray(x.anchors))).toBe(true);
      expect((await run('list_tasks', { fields: ['secrets'] })).text).toMatch(/^VALIDATION_ERROR: Invalid arguments for list_tasks: fields\.0: /);
    });

    it('rows carry the fields to pick work by, the rest only when set or asked for', async () => {
      await given('pages');
      const always = ['id', 'title', 'status', 'priority', 'labels', 'blockedBy', 'openBlockers', 'blocks', 'children', 'isReady'];
      const rows = (await must('list_tasks', { project: 'API', sort: 'id' })).data.tasks as Array<Record<string, unknown>>;
      const plain = rows.find((r) => r.title === 'Page 0')!;
      expect(Object.keys(plain).sort()).toEqual([...always].sort());
      // API-1: claimed (so assigned), with a checklist.
      const busy = rows.find((r) => r.id === 'API-1')!;
      expect(Object.keys(busy).sort()).toEqual([...always, 'assignee', 'claim', 'checklistProgress'].sort());
      expect(busy).toMatchObject({ assignee: 'agent', claim: { actor: 'agent' }, checklistProgress: { done: 1, total: 3 } });
      await must('create_task', { project: 'API', title: 'Child bug', kind: 'bug', parentId: 'API-1' });
      const child = ((await must('search_tasks', { query: 'child bug' })).data.results as Array<{ task: Record<string, unknown> }>)[0]!.task;
      expect(child).toMatchObject({ kind: 'bug', parentId: 'API-1' });
      const wide = ((await must('next_tasks', { fields: ['uid', 'project', 'version', 'updatedAt', 'statusCategory'] })).data.tasks as Array<Record<string, unknown>>)[0]!;
      expect(wide).toMatchObject({ uid: expect.stringMatching(/^[0-9A-Z]{26}$/), project: 'API', version: expect.any(Number), updatedAt: expect.any(String), statusCategory: 'todo' });
      // A row is a fraction of the task get_task returns.
      const full = JSON.stringify((await must('get_task', { id: String(plain.id) })).data.task);
      expect(JSON.stringify(plain).length).toBeLessThan(full.length / 2);
    });
  });

  describe('error codes', () => {
    it('each begins with its code and suggests a call', async () => {
      await given('pages');
      expect(await expectCode('TASK_NOT_FOUND', 'get_task', { id: 'API-999' })).toMatch(/Suggestions:\n- /);
      expect(await expectCode('PROJECT_NOT_FOUND', 'list_tasks', { project: 'APX' })).toContain('API');
      expect(await expectCode('VALIDATION_ERROR', 'create_task', { project: 'API', title: '' })).toContain('title');
      expect(await expectCode('VALIDATION_ERROR', 'list_tasks', { limit: 'ten' })).toContain('limit');
      expect(await expectCode('VALIDATION_ERROR', 'get_task', { idd: 'API-1' })).toContain('Did you mean "id"');
      expect(await expectCode('VALIDATION_ERROR', 'update_checklist', { id: 'API-1', ops: [{ op: 'explode' }] })).toContain('ops');
      expect(await expectCode('INVALID_STATUS', 'update_task', { id: 'API-1', status: 'doing' })).toContain('in_progress');
      await expectCode('CYCLE_DETECTED', 'add_dependency', { taskId: 'API-2', blockedBy: 'API-1' });
      await expectCode('SELF_DEPENDENCY', 'add_dependency', { taskId: 'API-1', blockedBy: 'API-1' });
      expect(await expectCode('VERSION_CONFLICT', 'update_task', { id: 'API-1', expectedVersion: 1, title: 'x' })).toContain('get_task');
      expect(await expectCode('CHECKLIST_INDEX_OUT_OF_RANGE', 'update_checklist', { id: 'API-1', ops: [{ op: 'check', index: 99 }] })).toContain('get_task');
      await expectCode('INVALID_ID', 'get_task', { id: 'not an id' });
      await expectCode('PROJECT_EXISTS', 'create_project', { key: 'API', name: 'Again' });
      await expectCode('NOT_CLAIMED', 'release_task', { id: 'API-4' });
      await must('delete_task', { id: 'API-4' });
      await expectCode('TASK_DELETED', 'update_task', { id: 'API-4', title: 'x' });
      await expectCode('STATUS_IN_USE', 'update_project', { key: 'API', statuses: [{ op: 'remove', name: 'todo' }] });
      await inOtherProcess(ws.db, "await cairn.call('claim_task', { id: 'API-5' })");
      expect(await expectCode('ALREADY_CLAIMED', 'claim_task', { id: 'API-5' })).toContain('claimed by cli');
    });

    it('READ_ONLY: a read-only server neither lists nor runs write tools', async () => {
      await given('project');
      const ro = await connect({ db: ws.db, args: ['--read-only', '--toolsets', 'all'] });
      try {
        const names = (await ro.listTools()).tools.map((t) => t.name);
        expect(names).toContain('get_task');
        expect(names).not.toContain('create_task');
        for (const t of (await ro.listTools()).tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
        // A write tool an agent remembers is refused with READ_ONLY, and nothing changes.
        const r = await call(ro, 'create_task', { project: 'API', title: 'Sneaky' });
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(/^READ_ONLY: create_task changes data/);
        expect((await call(ro, 'search_tasks', { query: 'Sneaky' })).text).toMatch(/^No tasks match/);
      } finally {
        await ro.close();
      }
    });
  });
});
