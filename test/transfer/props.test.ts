/**
 * Properties of export and import over random workspaces: export → import into an empty workspace →
 * export is byte-identical; importing twice changes nothing; a markdown task file parses back to the
 * same task fields.
 */
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportMarkdown } from '../../src/core/services/export.js';
import { parseMarkdownTask } from '../../src/core/services/export-markdown.js';
import { tempCairn } from '../helpers/workspace.js';
import { ctxOf, exportText, importInto } from './helpers.js';

type Op =
  | { t: 'create'; title: string; description: string; labels: string[]; priority: 'none' | 'low' | 'high'; checklist: string[]; blockers: number[]; parent: number | null; score: number }
  | { t: 'comment'; i: number; body: string }
  | { t: 'check'; i: number }
  | { t: 'complete' | 'archive' | 'delete' | 'claim'; i: number }
  | { t: 'edit'; i: number; title: string };

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0);
const idx = fc.nat({ max: 12 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('create' as const),
      title: text,
      description: fc.string({ maxLength: 80 }),
      labels: fc.array(fc.stringMatching(/^[a-z][a-z0-9 ]{0,8}$/), { maxLength: 3 }),
      priority: fc.constantFrom('none' as const, 'low' as const, 'high' as const),
      checklist: fc.array(text, { maxLength: 3 }),
      blockers: fc.array(idx, { maxLength: 2 }),
      parent: fc.option(idx, { nil: null }),
      score: fc.double({ min: -5, max: 5, noNaN: true }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('comment' as const), i: idx, body: text }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('check' as const), i: idx }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constantFrom('complete' as const, 'archive' as const, 'delete' as const, 'claim' as const), i: idx }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('edit' as const), i: idx, title: text }) },
);

async function apply(c: ReturnType<typeof tempCairn>, ops: Op[]): Promise<void> {
  await c.call('create_project', { key: 'PR', name: 'Props' });
  const ids: string[] = [];
  const at = (i: number) => ids[i % Math.max(1, ids.length)];
  for (const op of ops) {
    try {
      if (op.t === 'create') {
        const blockedBy = ids.length ? ([...new Set(op.blockers.map(at))] as string[]) : [];
        const parentId = ids.length && op.parent !== null ? at(op.parent) : undefined;
        const { task } = await c.call('create_task', {
          project: 'PR',
          title: op.title,
          description: op.description,
          labels: op.labels,
          priority: op.priority,
          checklist: op.checklist,
          blockedBy,
          score: op.score,
          ...(parentId ? { parentId } : {}),
        });
        ids.push(task.id);
      } else if (ids.length === 0) continue;
      else if (op.t === 'comment') await c.call('add_comment', { id: at(op.i)!, body: op.body });
      else if (op.t === 'check') await c.call('update_checklist', { id: at(op.i)!, ops: [{ op: 'toggle', index: 0 }] });
      else if (op.t === 'complete') await c.call('complete_task', { id: at(op.i)! });
      else if (op.t === 'archive') await c.call('archive_task', { id: at(op.i)! });
      else if (op.t === 'delete') await c.call('delete_task', { id: at(op.i)! });
      else if (op.t === 'claim') await c.call('claim_task', { id: at(op.i)! });
      else if (op.t === 'edit') await c.call('update_task', { id: at(op.i)!, title: op.title });
    } catch (err) {
      // Refusals (a deleted task, an empty checklist, a parent that is deleted) change nothing.
      if (!(err instanceof Error) || !('code' in err) || (err as { code: string }).code === 'INTERNAL') throw err;
    }
  }
}

describe('transfer properties', () => {
  it('export → import into an empty workspace → export is byte-identical, and a second import changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const a = tempCairn();
        const b = tempCairn();
        try {
          await apply(a, ops);
          const first = await exportText(a);
          const file = join(a.ws.dir, 'x.jsonl');
          writeFileSync(file, first);
          await importInto(b, { path: file });
          expect(await exportText(b)).toBe(first);
          const again = await importInto(b, { path: file });
          expect(again.tasks.created + again.tasks.updated).toBe(0);
          expect(await exportText(b)).toBe(first);
        } finally {
          await a.done();
          await b.done();
        }
      }),
      { numRuns: 12 },
    );
  });

  it("a markdown task file parses back to the task's fields, description and checklist", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 15 }), async (ops) => {
        const a = tempCairn();
        try {
          await apply(a, ops);
          const files: string[] = [];
          await exportMarkdown(ctxOf(a), { includeArchived: true }, (path, content) => void (path.endsWith('README.md') || files.push(content)));
          for (const content of files) {
            const parsed = parseMarkdownTask(content);
            const t = (await a.call('get_task', { id: parsed.fields.id })).task;
            // The file keeps every edge (a deleted blocker can be restored); the task lists the live ones.
            const live: string[] = [];
            for (const b of parsed.fields.blockedBy) if (!(await a.call('get_task', { id: b })).task.deletedAt) live.push(b);
            expect(live).toEqual(t.blockedBy);
            expect(parsed.fields).toMatchObject({
              uid: t.uid,
              title: t.title,
              status: t.status,
              kind: t.kind,
              priority: t.priority,
              score: t.score,
              labels: t.labels,
              assignee: t.assignee,
              parent: t.parentId,
              version: t.version,
              createdAt: t.createdAt,
              updatedAt: t.updatedAt,
              completedAt: t.completedAt,
              archivedAt: t.archivedAt,
              deletedAt: t.deletedAt,
              links: t.links,
              anchors: t.anchors,
              closeReason: t.closeReason,
            });
            expect(parsed.description).toBe(t.description);
            expect(parsed.checklist).toEqual(t.checklist.map((i) => ({ text: i.text, checked: i.checked })));
          }
        } finally {
          await a.done();
        }
      }),
      { numRuns: 12 },
    );
  });
});
