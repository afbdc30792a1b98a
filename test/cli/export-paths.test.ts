/**
 * `cairn export` writes only inside `--out`: whatever key a workspace holds (one written before import
 * checked keys, or edited by hand), and whatever is in the way, which is named instead of INTERNAL.
 */
import fc from 'fast-check';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExportFolder } from '../../src/core/services/export-files.js';
import { systemClock } from '../../src/core/ports.js';
import { exportMarkdown } from '../../src/core/services/export.js';
import { PROJECT_KEY_RE } from '../../src/core/model/ids.js';
import { checkProject } from '../../src/core/services/import/validate.js';
import { openCairn } from '../../src/index.js';
import { Database } from '../../src/store/sqlite/native.js';
import { cliHarness, type CliHarness } from './cli-harness.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function harness(): CliHarness {
  const h = cliHarness();
  cleanups.push(h.cleanup);
  return h;
}

/** Renames projects behind Cairn's back, as an older Cairn's import could have stored them. */
function setKeys(db: string, keys: Array<[string, string]>): void {
  const raw = new Database(db);
  try {
    const stmt = raw.prepare('UPDATE projects SET key = ? WHERE key = ?');
    for (const [from, to] of keys) stmt.run(to, from);
  } finally {
    raw.close();
  }
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

describe('cairn export --format markdown stays inside --out', () => {
  it('writes a project keyed "../victim.txt" into a sanitised folder and leaves the victim alone', () => {
    const h = harness();
    h.ok(['project', 'create', 'API', 'Api']);
    h.ok(['add', 'One', '--project', 'API']);
    setKeys(h.db, [['API', '../victim.txt']]);
    mkdirSync(join(h.dir, 'kt2'));
    writeFileSync(join(h.dir, 'kt2', 'victim.txt'), 'precious');
    const r = h.run(['export', '--format', 'markdown', '--out', 'kt2/out']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(h.dir, 'kt2', 'victim.txt'), 'utf8')).toBe('precious');
    const files = filesUnder(join(h.dir, 'kt2'));
    expect(files.filter((f) => !f.startsWith(`out${sep}`))).toEqual(['victim.txt']);
    const folder = readdirSync(join(h.dir, 'kt2', 'out'));
    expect(folder).toHaveLength(1);
    expect(folder[0]).toMatch(/^victim_txt_[0-9a-z]{8}$/);
    expect(readdirSync(join(h.dir, 'kt2', 'out', folder[0]!)).sort()).toEqual(['README.md', `${folder[0]}-1.md`].sort());
  });

  it('names a file or folder in the way, and a folder that links out of --out, instead of answering INTERNAL', () => {
    const h = harness();
    h.ok(['project', 'create', 'API', 'Api']);
    h.ok(['add', 'One', '--project', 'API']);
    writeFileSync(join(h.dir, 'afile'), 'x');
    let r = h.run(['export', '--format', 'markdown', '--out', 'afile']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('error VALIDATION_ERROR: ');
    expect(r.stderr).toContain(`${join(h.dir, 'afile')} is in the way: the export writes a folder there`);
    mkdirSync(join(h.dir, 'adir'));
    r = h.run(['export', '--out', 'adir']);
    expect(r.stderr).toContain('adir is in the way: the export writes a file there. Nothing more was written.');
    mkdirSync(join(h.dir, 'out', 'API', 'API-1.md'), { recursive: true });
    r = h.run(['export', '--format', 'markdown', '--out', 'out']);
    expect(r.stderr).toContain(`${join(h.dir, 'out', 'API', 'API-1.md')} is in the way: the export writes a file there`);
    const elsewhere = join(h.dir, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(h.dir, 'linked-out-API'));
    mkdirSync(join(h.dir, 'out2'));
    symlinkSync(elsewhere, join(h.dir, 'out2', 'API'));
    r = h.run(['export', '--format', 'markdown', '--out', 'out2']);
    expect(r.stderr).toContain('Refused to write "API/README.md": it would land outside the --out folder');
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('no key can lead the markdown export out of --out', () => {
  const keyArb = fc.oneof(
    fc.string({ minLength: 1, maxLength: 24 }),
    fc.constantFrom('../victim.txt', '..', '.', '/etc/passwd', 'a/../../b', '..\\..\\x', 'out', 'C:\\x', '~', 'x\u0000y', 'AB/..', '-1'),
    fc.stringMatching(/^[./A-Za-z\\-]{1,12}$/),
  );

  it('for generated keys: import refuses every one that is not 2–10 letters, and the export writes only inside --out', async () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'cairn-export-keys-'));
    cleanups.push(() => rmSync(sandbox, { recursive: true, force: true }));
    const db = join(sandbox, 'ws', 'cairn.db');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(keyArb, { minLength: 1, maxLength: 6 }), async (keys) => {
        // What import can produce: a key it accepts is 2–10 letters.
        for (const key of keys) {
          const p = { type: 'project' as const, at: { file: 'x.jsonl', line: 2 }, ref: key, key, name: 'P', description: '', root: null, aliases: [], template: 'default' as const, archivedAt: null };
          let accepted = true;
          try {
            checkProject(p);
          } catch {
            accepted = false;
          }
          if (accepted) expect(p.key).toMatch(PROJECT_KEY_RE);
        }
        // What an older workspace may hold anyway: every key, raw.
        rmSync(join(sandbox, 'ws'), { recursive: true, force: true });
        const cairn = openCairn({ db, actor: 'prop' });
        const temp = keys.map((_, i) => `KP${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`);
        for (const k of temp) {
          await cairn.call('create_project', { key: k, name: k });
          await cairn.call('create_task', { project: k, title: 'T' });
        }
        await cairn.close();
        setKeys(
          db,
          temp.map((k, i) => [k, keys[i]!]),
        );
        const base = join(sandbox, `run-${run++}`);
        const out = join(base, 'a', 'out');
        mkdirSync(join(base, 'a'), { recursive: true });
        writeFileSync(join(base, 'victim.txt'), 'v');
        writeFileSync(join(base, 'a', 'victim.txt'), 'v');
        const reopened = openCairn({ db, actor: 'prop' });
        try {
          const folder = new ExportFolder(out);
          const counts = await exportMarkdown({ store: reopened.store, clock: systemClock, actor: 'prop' }, { includeArchived: true }, (path, content) => folder.write(path, content));
          expect(counts.projects).toBe(keys.length);
        } finally {
          await reopened.close();
        }
        const written = filesUnder(base);
        expect(written.filter((f) => !f.startsWith(join('a', 'out') + sep))).toEqual([join('a', 'victim.txt'), 'victim.txt']);
        // One folder per project, each with its README and task file, none a link.
        const folders = readdirSync(out);
        expect(folders).toHaveLength(keys.length);
        for (const f of folders) {
          expect(lstatSync(join(out, f)).isDirectory()).toBe(true);
          expect(readdirSync(join(out, f)).sort()).toEqual(['README.md', `${f}-1.md`].sort());
        }
        expect(existsSync(join(base, 'victim.txt')) && readFileSync(join(base, 'victim.txt'), 'utf8')).toBe('v');
      }),
      { numRuns: 25 },
    );
  });
});
