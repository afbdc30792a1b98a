/** `cairn start` as a claim that means "I can work on this": BLOCKED unless --force, --next takes the first ready task, the lease's end in every view. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, okJson, type CliHarness } from './cli-harness.js';

let h: CliHarness;
beforeAll(() => {
  h = cliHarness();
  const setup = h.runMany([
    ['init', '--key', 'API', '--name', 'API'],
    ['add', 'Schema', '--priority', 'high'],
    ['add', 'Endpoints', '--blocked-by', 'API-1', '--priority', 'urgent'],
    ['add', 'Docs', '--labels', 'docs'],
  ]);
  for (const r of setup) expect(r.code, r.stderr).toBe(0);
});
afterAll(() => h.cleanup());

describe('cairn start', () => {
  it('refuses a blocked task (exit 3, BLOCKED naming the blocker), --force claims it; --next takes the first ready task; both views show the lease end', () => {
    const [blocked, next, nextDocs, none, both, list] = h.runMany([
      ['start', 'API-2', '--json'],
      ['start', '--next', '--json'],
      ['start', '--next', '--labels', 'docs', '--lease-seconds', '600'],
      ['start', '--next'],
      ['start', 'API-3', '--next'],
      ['list'],
    ]);
    expect(blocked!.code).toBe(3);
    expect(blocked!.json().error).toMatchObject({ code: 'BLOCKED', details: { blockedBy: ['API-1'] } });
    expect(okJson(next!).task).toMatchObject({ id: 'API-1', status: 'in_progress', claim: { actor: 'tester' } });
    expect(nextDocs!.stdout).toMatch(/^Claimed API-3 .*\n {2}claimed by tester until \S/);
    expect(none!.code).toBe(0);
    expect(none!.stdout).toContain('No ready task to claim');
    expect(both!.code).toBe(1); // invalid
    expect(both!.stderr).toContain('not both');
    expect(list!.stdout).toMatch(/claimed by tester until \S/);
    const [forced, history] = h.runMany([
      ['start', 'API-2', '--force', '--json'],
      ['history', 'API-2', '--json'],
    ]);
    expect(okJson(forced!).task).toMatchObject({ id: 'API-2', claim: { actor: 'tester' } });
    expect(okJson(history!).events.at(-1)).toMatchObject({ type: 'task.claimed', changes: { forcedPastBlockers: { after: ['API-1'] } } });
  });
});
