/**
 * Import refuses what create refuses, with the file, line and field named and nothing imported: keys
 * that could name a path, oversized or malformed values, a task named twice, lines without end.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CairnError } from '../../src/core/errors.js';
import { exportText, freshWorkspaces, importInto } from './helpers.js';

const fresh = freshWorkspaces();

/** A one-project, two-task export to edit: line 2 is the project, then each task line. */
async function baseExport(): Promise<string[]> {
  const src = fresh();
  await src.call('create_project', { key: 'API', name: 'Api' });
  const first = (await src.call('create_task', { project: 'API', title: 'First', labels: ['ui'], checklist: ['Step'] })).task;
  await src.call('add_comment', { id: first.id, body: 'A note' });
  await src.call('create_task', { project: 'API', title: 'Second' });
  return (await exportText(src)).trimEnd().split('\n');
}

const edit = (lines: string[], entity: string, nth: number, change: (o: Record<string, any>) => void): string[] => {
  let seen = 0;
  return lines.map((l) => {
    const o = JSON.parse(l) as Record<string, any>;
    if (o.entity !== entity || seen++ !== nth) return l;
    change(o);
    return JSON.stringify(o);
  });
};

async function refused(lines: string[] | string, opts: { from?: 'cairn' | 'beads'; project?: string } = {}): Promise<CairnError> {
  const target = fresh();
  await target.call('create_project', { key: 'OWN', name: 'Own' });
  const file = join(target.ws.dir, 'input.jsonl');
  writeFileSync(file, Array.isArray(lines) ? lines.join('\n') + '\n' : lines);
  const before = await exportText(target);
  const err = await importInto(target, { path: file, from: opts.from ?? 'cairn', ...(opts.project ? { project: opts.project } : {}) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CairnError);
  expect((err as CairnError).code).toBe('VALIDATION_ERROR');
  expect((err as CairnError).message).toMatch(/Nothing was imported\.$/);
  // Nothing changed: the workspace exports as it did.
  expect(await exportText(target)).toBe(before);
  return err as CairnError;
}

describe('import validates like create', () => {
  it('refuses a project key that is not 2–10 letters, in the file or in --project', async () => {
    const lines = await baseExport();
    for (const key of ['../victim.txt', 'a/b', 'X', 'TOOLONGKEYNAME', '..']) {
      const err = await refused(edit(lines, 'project', 0, (o) => void (o.key = key)));
      expect(err.message).toContain(':2: field "key": project key must be 2–10 letters');
    }
    const err = await refused(lines, { project: '../zz' });
    expect(err.message).toBe('--project "../zz": project key must be 2–10 letters A–Z, e.g. "API". Nothing was imported.');
  });

  it('refuses a title, description, label, slug, checklist item or comment that create refuses, naming the line and field', async () => {
    const lines = await baseExport();
    const at = `:${lines.findIndex((l) => l.startsWith('{"entity":"task"')) + 1}: `;
    const cases: Array<[(o: Record<string, any>) => void, string]> = [
      [(o) => void (o.title = 'x'.repeat(5000)), 'field "title": title must be at most 200 characters (got 5000 characters)'],
      [(o) => void (o.title = '   '), 'field "title": title must not be empty'],
      [(o) => void (o.description = 'd'.repeat(100_001)), 'field "description": description must be at most 100,000 characters'],
      [(o) => void (o.labels = ['a,b']), 'field "labels[0]": labels must not contain commas'],
      [(o) => void (o.labels = ['l'.repeat(1000)]), 'field "labels[0]": labels must be at most 50 characters'],
      [(o) => void (o.slug = 'Not A Slug'), 'field "slug": slug must be lower-case letters'],
      [(o) => void (o.checklist = [{ text: 'c'.repeat(501), checked: false }]), 'field "checklist[0].text": checklist text must be at most 500 characters'],
      [(o) => void (o.links = { prUrl: 'u'.repeat(1001) }), 'field "links.prUrl"'],
      [(o) => void (o.links = { prUrl: '\u0001javascript:alert(1)' }), 'field "links.prUrl": prUrl must be an http or https URL'],
      [(o) => void (o.anchors = ['/etc/shadow']), 'field "anchors": Anchor "/etc/shadow" is outside'],
      [(o) => void (o.anchors = ['../../etc/passwd']), 'field "anchors": Anchor "../../etc/passwd" is outside'],
      [(o) => void (o.anchors = ['src/x.ts\u0000../../etc/passwd']), 'field "anchors[0]": anchors must not contain control characters'],
    ];
    const blankComment = edit(lines, 'comment', 0, (o) => void (o.body = '  '));
    expect((await refused(blankComment)).message).toContain(`${at}field "comments[0].body": comment body must not be empty`);
    for (const [change, message] of cases) expect((await refused(edit(lines, 'task', 0, change))).message).toContain(at + message);
  });

  it('refuses a task named twice in one file, naming both lines', async () => {
    const lines = await baseExport();
    const first = lines.findIndex((l) => l.startsWith('{"entity":"task"'));
    const again = edit([lines[first]!], 'task', 0, (o) => void (o.title = 'Other title'))[0]!;
    const err = await refused([...lines, again]);
    expect(err.message).toMatch(new RegExp(`:${lines.length + 1}: field "id": "[0-9A-Z]{26}" is also the id of the task at .*input\\.jsonl:${first + 1}; each task may appear once`));
    const beads = ['{"id":"bd-1","title":"One","status":"open"}', '{"id":"bd-2","title":"Two","status":"open"}', '{"id":"bd-1","title":"One again","status":"open"}'];
    expect((await refused(beads, { from: 'beads' })).message).toMatch(/input\.jsonl:3: field "id": "bd-1" is also the id of the task at .*input\.jsonl:1;/);
  });

  it('refuses a line longer than 8 MiB and an input that never ends, without reading it all', async () => {
    const lines = await baseExport();
    const long = edit(lines, 'task', 0, (o) => void (o.title = 'x'.repeat(9 * 1024 * 1024)));
    const at = lines.findIndex((l) => l.startsWith('{"entity":"task"')) + 1;
    expect((await refused(long)).message).toContain(`input.jsonl:${at}: the line is longer than 8 MiB`);
    const target = fresh();
    for (const from of ['cairn', 'beads'] as const) {
      const err = await importInto(target, { path: '/dev/zero', from }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CairnError);
      expect((err as CairnError).message).toBe('/dev/zero:1: the line is longer than 8 MiB, and one line holds one record. Nothing was imported.');
    }
  });

  it('leaves out an alias another project holds, as create refuses it, and says so', async () => {
    const target = fresh();
    await target.call('create_project', { key: 'OWN', name: 'Own', aliases: ['bd'] });
    const file = join(target.ws.dir, 'issues.jsonl');
    writeFileSync(file, '{"id":"bd-1","title":"One","status":"open"}\n');
    const report = await importInto(target, { path: file, from: 'beads', project: 'BEADS' });
    expect(report.warnings).toEqual([`${file}:1: alias "bd" of project BEADS left out: it already names project OWN`]);
    expect((await target.call('get_project', { key: 'BEADS' })).project.aliases).toEqual([]);
    expect((await target.call('get_project', { key: 'bd' })).project.key).toBe('OWN');
  });

  it('still reads CRLF lines and a last line without a newline', async () => {
    const target = fresh();
    const file = join(target.ws.dir, 'issues.jsonl');
    writeFileSync(file, '{"id":"bd-1","title":"One","status":"open"}\r\n{"id":"bd-2","title":"Two","status":"closed"}');
    const report = await importInto(target, { path: file, from: 'beads', project: 'BD' });
    expect(report.tasks.created).toBe(2);
    expect((await target.call('get_task', { id: 'BD-2' })).task).toMatchObject({ title: 'Two', status: 'done' });
  });
});
