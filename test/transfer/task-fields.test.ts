/**
 * The transferable task fields are defined once (export-fields.ts): every field of the Task schema
 * is in that list or excluded with a reason, the fixture sets every one, and the markdown front
 * matter carries the same fields as the JSONL task line.
 */
import { describe, expect, it } from 'vitest';
import { FRONT_MATTER_FIELDS, TASK_FIELD_NAMES, TASK_FIELDS, TASK_FIELDS_NOT_TRANSFERRED } from '../../src/core/services/export-fields.js';
import { exportMarkdown } from '../../src/core/services/export.js';
import { parseMarkdownTask } from '../../src/core/services/export-markdown.js';
import { Task } from '../../src/core/model/task.js';
import { ctxOf, exportText, freshWorkspaces, fullTasks } from './helpers.js';

const fresh = freshWorkspaces();
const carried = TASK_FIELD_NAMES.flatMap((k) => TASK_FIELDS[k].carries as string[]);

describe('task fields across export and import', () => {
  it('every field of the Task schema is transferred or excluded with a reason, never both', () => {
    const schema = Object.keys(Task().shape).sort();
    const excluded = Object.keys(TASK_FIELDS_NOT_TRANSFERRED);
    expect(new Set(carried).size).toBe(carried.length);
    expect(carried.filter((k) => excluded.includes(k))).toEqual([]);
    expect([...carried, ...excluded].sort()).toEqual(schema);
    for (const { why } of Object.values(TASK_FIELDS_NOT_TRANSFERRED)) expect(why.length).toBeGreaterThan(10);
  });

  it('the fixture sets every transferred field to something a new task does not have', async () => {
    const a = fresh();
    await fullTasks(a);
    const tasks = await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => (await a.call('get_task', { id: `FULL-${n}` })).task));
    const bare = tasks[0] as Record<string, unknown>;
    const unset = carried.filter((k) => !tasks.slice(1).some((t) => JSON.stringify((t as Record<string, unknown>)[k]) !== JSON.stringify(bare[k])));
    expect(unset).toEqual([]);
  });

  it('the markdown front matter carries the fields of the JSONL task line, the body the rest', async () => {
    const a = fresh();
    await fullTasks(a);
    const lines = new Map<string, Record<string, unknown>>();
    for (const l of (await exportText(a)).trimEnd().split('\n')) {
      const o = JSON.parse(l) as Record<string, unknown>;
      if (o.entity === 'task') lines.set(o.id as string, o);
    }
    const files: string[] = [];
    await exportMarkdown(ctxOf(a), { includeArchived: true }, (path, content) => void (path.endsWith('README.md') || files.push(content)));
    expect(files).toHaveLength(lines.size);
    for (const content of files) {
      const md = parseMarkdownTask(content);
      const line = lines.get(md.fields.id)!;
      const { entity, ...fields } = line;
      void entity;
      expect(Object.keys(fields)).toEqual(TASK_FIELD_NAMES);
      expect(Object.keys(md.fields)).toEqual(FRONT_MATTER_FIELDS);
      // The body holds what the front matter leaves out; the two fields spelled differently carry the same ids.
      expect(TASK_FIELD_NAMES.filter((k) => !(FRONT_MATTER_FIELDS as string[]).includes(k))).toEqual(['checklist', 'description']);
      expect(md.description).toBe(line.description);
      expect(md.checklist).toEqual(line.checklist);
      const parent = line.parent as { id: string } | null;
      const blockedBy = line.blockedBy as Array<{ id: string }>;
      expect(md.fields).toEqual({ ...fields, parent: parent?.id ?? null, blockedBy: blockedBy.map((b) => b.id), description: undefined, checklist: undefined });
    }
  });
});
