/** Terminals are never hijacked (issue 22, item 6): control and bidi-override characters in task text print escaped; --json stays exact. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCairn } from '../../src/index.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const CLEAR = '\u001b[2J';
const HOSTILE = [`clip ${OSC52} done`, `wipe ${CLEAR}\u001b[H now`, 'nul \u0000 bel \u0007 del \u007f csi \u009b31m', 'bidi \u202egnp.exe\u202c and \u2066iso\u2069', 'back\rspace\u0008'];
/** Anything a terminal would act on: C0 controls but newline and tab, DEL, C1 controls, bidi embeddings/overrides/isolates and marks. */
const DANGEROUS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('task text reaches the terminal escaped', () => {
  let h: CliHarness;
  beforeAll(async () => {
    h = cliHarness();
    h.ok(['init', '--key', 'API']);
    // Through the library: a NUL cannot travel in argv, but it can in JSON from an agent.
    const c = openCairn({ db: h.db, actor: `agent${CLEAR}` });
    for (const title of HOSTILE) await c.call('create_task', { project: 'API', title, description: `desc of ${title}\nsecond line`, labels: ['l\u001b[31mabel'] });
    await c.call('add_comment', { id: 'API-1', body: `comment ${OSC52}` });
    await c.close();
  });
  afterAll(() => h.cleanup());

  for (const args of [
    ['list'],
    ['show', 'API-1'],
    ['show', 'API-2'],
    ['show', 'API-3'],
    ['show', 'API-4'],
    ['show', 'API-5'],
    ['ready'],
    ['board'],
    ['search', 'clip'],
    ['history', 'API-1'],
    ['labels'],
    ['changes'],
  ]) {
    it(`cairn ${args.join(' ')}: no raw control or bidi characters, shown as \\x1b / \\u202e`, () => {
      const r = h.run(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(DANGEROUS);
      expect(r.stderr).not.toMatch(DANGEROUS);
    });
  }

  it('the escapes are visible where the text was', () => {
    const list = h.run(['list']).stdout;
    expect(list).toContain('clip \\x1b]52;c;ZWNobyBwd25lZA==\\x07 done');
    expect(list).toContain('wipe \\x1b[2J\\x1b[H now');
    expect(list).toContain('bidi \\u202egnp.exe\\u202c and \\u2066iso\\u2069');
    const show = h.run(['show', 'API-3']).stdout;
    // A NUL is stored as U+FFFD on every engine (ops/run-op.ts wellFormed), which is harmless to print.
    expect(show).toContain('nul \ufffd bel \\x07 del \\x7f csi \\x9b31m');
    // Newlines in a description are layout, not an attack: they stay.
    expect(h.run(['show', 'API-1']).stdout).toMatch(/desc of clip .*\n.*second line/);
  });

  it('an error naming hostile text (a not-found suggestion) is escaped too', () => {
    const r = h.run(['show', 'API-55']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(DANGEROUS);
  });

  it('--json keeps the text exact', () => {
    const t = h.ok(['show', 'API-1']).task;
    expect(t.title).toBe(HOSTILE[0]);
    expect(t.comments[0].body).toBe(`comment ${OSC52}`);
    const all = h.ok(['list']).tasks.map((x: { title: string }) => x.title);
    expect(all.sort()).toEqual(HOSTILE.map((t) => t.replace('\u0000', '\ufffd')).sort());
  });
});
