/** Bad input through the built bin: clear errors, the right exit codes, JSON errors, and nothing written. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { cliHarness, type CliHarness, type CliResult } from './cli-harness.js';

/** Everything a write could touch: every task in every state, and the last activity seq. */
async function fingerprint(db: string): Promise<string> {
  const c = openCairn({ db, actor: 'probe' });
  try {
    const { tasks } = await c.call('list_tasks', { allProjects: true, includeDone: true, includeArchived: true, sort: 'id', limit: 200 });
    const { projects } = await c.call('list_projects', { includeArchived: true });
    const { lastSeq } = await c.call('changes_since', { since: 0, limit: 1 });
    return JSON.stringify({ tasks, projects, lastSeq });
  } finally {
    await c.close();
  }
}

function expectError(r: CliResult, exit: number, code: string): void {
  expect({ exit: r.code, stdout: r.stdout }).toMatchObject({ exit });
  const body = r.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toMatchObject({ code, message: expect.any(String), suggestions: expect.any(Array) });
  expect(body.error.message.length).toBeGreaterThan(10);
}

describe('cairn CLI bad input', () => {
  let h: CliHarness;
  beforeAll(() => {
    h = cliHarness();
    h.ok(['project', 'create', 'API', 'API server']);
    h.ok(['add', 'First', '--project', 'API', '--checklist', 'one']);
    h.ok(['add', 'Second', '--project', 'API', '--blocked-by', 'API-1']);
    h.ok(['update', 'API-1', '--priority', 'high']);
  });
  afterAll(() => h.cleanup());

  it('refuses each bad input with the right code and exit status, and changes nothing', async () => {
    const before = await fingerprint(h.db);
    const cases: Array<[string[], number, string]> = [
      [['add', '', '--project', 'API'], 1, 'VALIDATION_ERROR'],
      [['add', 'x'.repeat(201), '--project', 'API'], 1, 'VALIDATION_ERROR'],
      [['add', 'Ok title', '--project', 'NOPE'], 2, 'PROJECT_NOT_FOUND'],
      [['add', 'Ok title', '--project', 'API', '--priority', 'huge'], 1, 'VALIDATION_ERROR'],
      [['add', 'Ok title', '--project', 'API', '--blocked-by', 'API-99'], 2, 'TASK_NOT_FOUND'],
      [['update', 'API-1', '--status', 'nope'], 1, 'INVALID_STATUS'],
      [['move', 'API-1', 'nope'], 1, 'INVALID_STATUS'],
      [['show', 'API-99'], 2, 'TASK_NOT_FOUND'],
      [['update', 'API-99', '--title', 'x'], 2, 'TASK_NOT_FOUND'],
      [['show', 'not an id!'], 1, 'INVALID_ID'],
      [['done', 'API-'], 1, 'INVALID_ID'],
      [['list', '--limit', '-5'], 1, 'VALIDATION_ERROR'],
      [['list', '--limit', '100000000'], 1, 'VALIDATION_ERROR'],
      [['list', '--limit', 'many'], 1, 'VALIDATION_ERROR'],
      [['ready', '--limit', '0'], 1, 'VALIDATION_ERROR'],
      [['block', 'API-1', '--by', 'API-2'], 3, 'CYCLE_DETECTED'],
      [['block', 'API-1', '--by', 'API-1'], 1, 'SELF_DEPENDENCY'],
      [['update', 'API-1', '--title', 'Stale', '--expected-version', '1'], 3, 'VERSION_CONFLICT'],
      [['check', 'API-1', '--check', '0', '--check', '5'], 1, 'CHECKLIST_INDEX_OUT_OF_RANGE'],
      [['check', 'API-1', '--add', 'new', '--remove', '9'], 1, 'CHECKLIST_INDEX_OUT_OF_RANGE'],
      [['check', 'API-1'], 1, 'VALIDATION_ERROR'],
      [['comment', 'API-1', ' '], 1, 'VALIDATION_ERROR'],
      [['release', 'API-1'], 3, 'NOT_CLAIMED'],
      [['purge', 'API-1', '--yes'], 1, 'VALIDATION_ERROR'],
      [['purge', 'API-1'], 1, 'VALIDATION_ERROR'],
      [['project', 'create', 'A1', 'Bad key'], 1, 'VALIDATION_ERROR'],
      [['project', 'create', 'API', 'Again'], 3, 'PROJECT_EXISTS'],
      [['project', 'update', 'API', '--statuses', '{not json'], 1, 'VALIDATION_ERROR'],
      [['init', '--name', 'No key'], 1, 'VALIDATION_ERROR'],
      [['init', '--key', 'A1'], 1, 'VALIDATION_ERROR'],
      // `init --key API` again is a friendly no-op now (test/cli/cli-init-git.test.ts), not PROJECT_EXISTS.
      [['frobnicate'], 1, 'VALIDATION_ERROR'],
      [['list', '--frob'], 1, 'VALIDATION_ERROR'],
      [['show'], 1, 'VALIDATION_ERROR'],
      [['show', 'API-1', 'API-2'], 1, 'VALIDATION_ERROR'],
      [['serve', '--port', 'abc'], 1, 'VALIDATION_ERROR'],
    ];
    const results = h.runMany(cases.map(([args]) => [...args, '--json']));
    for (const [n, [args, exit, code]] of cases.entries()) {
      const r = results[n]!;
      try {
        expectError(r, exit, code);
      } catch (err) {
        throw new Error(`cairn ${args.join(' ')}: ${(err as Error).message}\n${r.stdout}${r.stderr}`);
      }
    }
    expect(await fingerprint(h.db)).toBe(before);
  });

  it('names the flag at fault and suggests help; human errors go to stderr with CLI suggestions', () => {
    const [limit, title, check, unknown, missing] = h.runMany([
      ['list', '--limit', '-5', '--json'],
      ['add', '', '--project', 'API', '--json'],
      ['check', 'API-1', '--check', 'x', '--json'],
      ['lsit'],
      ['show', 'API-99'],
    ]);
    expect(limit!.json().error.message).toContain('--limit');
    expect(limit!.json().error.suggestions).toContain('cairn list --help');
    expect(title!.json().error.message).toMatch(/<title>: title must not be empty/);
    expect(check!.json().error.message).toContain('--check');
    expect(unknown!.code).toBe(1);
    expect(unknown!.stderr).toContain("Unknown command 'lsit'");
    expect(unknown!.stderr).toContain('list');
    expect(missing!.stderr).toMatch(/^error TASK_NOT_FOUND: Task API-99 does not exist[^\n]*\n {2}→ cairn show API-1\n/);
    // A real process: exit status and streams as a shell sees them.
    const cycle = h.run(['block', 'API-1', '--by', 'API-2']);
    expect(cycle.code).toBe(3);
    expect(cycle.stdout).toBe('');
    expect(cycle.stderr).toMatch(/^error CYCLE_DETECTED: .*API-1 → API-2 → API-1/);
    expect(cycle.stderr).toMatch(/\n {2}→ /);
  });

  it('a claim held by someone else is a conflict naming the holder', () => {
    const [mine, theirs] = h.runMany([
      ['start', 'API-1', '--as', 'alice', '--json'],
      ['start', 'API-1', '--as', 'bob', '--json'],
    ]);
    expect(mine!.code).toBe(0);
    expectError(theirs!, 3, 'ALREADY_CLAIMED');
    expect(theirs!.json().error.details.holder).toBe('alice');
  });
});

describe('cairn CLI without a workspace', () => {
  let h: CliHarness;
  beforeAll(() => {
    h = cliHarness({ useEnvDb: false });
  });
  afterAll(() => h.cleanup());

  it('answers reads empty with a hint, refuses writes with NO_WORKSPACE, and creates no file', () => {
    // A real process for the exit status; the rest in one process.
    const add = h.run(['add', 'Task', '--project', 'API', '--json']);
    expectError(add, 2, 'NO_WORKSPACE');
    expect(add.json().error.suggestions.join(' ')).toMatch(/cairn init.*--db/);
    const [list, board, show, project] = h.runMany([['list', '--json'], ['board'], ['show', 'API-1', '--json'], ['project', 'create', 'API', 'Api']]);
    expect(list!.code).toBe(0);
    expect(list!.json()).toEqual({ tasks: [], total: 0, nextCursor: null });
    expect(list!.stderr).toMatch(/no workspace found.*cairn init/);
    expect(board!.code).toBe(0);
    expect(show!.code).toBe(2);
    expect(project!.stderr).toContain('NO_WORKSPACE');
    expect(readdirSync(h.dir)).toEqual([]);
  });

  it('an explicit --db or CAIRN_DB is read without creating it, and created by the first write', () => {
    const db = join(h.dir, 'elsewhere', 'x.db');
    const [list, ready] = h.runMany([
      ['--db', db, 'list', '--json'],
      ['ready', '--db', db],
    ]);
    expect(list!.json().total).toBe(0);
    expect(ready!.stderr).toContain('does not exist yet');
    expect(existsSync(db)).toBe(false);
    expect(h.run(['project', 'create', 'API', 'Api'], { env: { CAIRN_DB: db } }).code).toBe(0);
    expect(existsSync(db)).toBe(true);
  });

  it('init creates .cairn/ in the working directory; the workspace is then found from subfolders', () => {
    expect(h.ok(['init'])).toEqual({ workspace: join(h.dir, '.cairn', 'cairn.db'), created: true, project: null, gitignore: join(h.dir, '.cairn', '.gitignore') });
    const sub = join(h.dir, 'elsewhere');
    const [web, added] = h.runMany(
      [
        ['project', 'create', 'WEB', 'Web', '--root', sub, '--json'],
        ['add', 'From a subfolder', '--json'],
      ],
      { cwd: sub },
    );
    expect(web!.json().project.key).toBe('WEB');
    expect(added!.json().task.id).toBe('WEB-1');
    const [noProject] = h.runMany([['add', 'Where?', '--json']]);
    expectError(noProject!, 1, 'VALIDATION_ERROR');
    expect(noProject!.json().error.suggestions).toContain('--project WEB');
  });
});
