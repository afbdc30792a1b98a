/**
 * The quick shape test that lets a tool result skip zod (src/mcp/shape-check.ts) says yes only to
 * what zod would pass through unchanged: real op results pass, and a result with a key too many, a
 * wrong kind of value or a missing field is handed to zod.
 */
import fc from 'fast-check';
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { shapeCheck } from '../../src/mcp/shape-check.js';
import { findOp } from '../../src/ops/index.js';
import { tempCairn } from '../helpers/workspace.js';

let c: ReturnType<typeof tempCairn> | undefined;
afterEach(async () => {
  await c?.done();
  c = undefined;
});

describe('shapeCheck', () => {
  it('passes real results of get_task, create_task and update_task, which zod returns unchanged', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'SC', name: 'Shapes' });
    const blocker = await c.call('create_task', { project: 'SC', title: 'first', labels: ['a'], checklist: ['one', 'two'] });
    const created = await c.call('create_task', { project: 'SC', title: 'second', blockedBy: [blocker.task.id], links: { branch: 'b' } });
    await c.call('add_comment', { id: created.task.id, body: 'a note' });
    const results: Array<[string, unknown]> = [
      ['create_task', created],
      ['get_task', await c.call('get_task', { id: created.task.id })],
      ['update_task', await c.call('update_task', { id: created.task.id, priority: 'high', assignee: 'me' })],
    ];
    for (const [name, out] of results) {
      const schema = findOp(name)!.output;
      expect(shapeCheck(schema)?.(out), name).toBe(true);
      expect(schema.parse(out), name).toEqual(out);
    }
  });

  it('refuses an extra key at any depth, a wrong kind of value and a missing field', async () => {
    c = tempCairn();
    await c.call('create_project', { key: 'SC', name: 'Shapes' });
    const out = await c.call('create_task', { project: 'SC', title: 'one', checklist: ['x'] });
    const check = shapeCheck(findOp('create_task')!.output)!;
    const copy = () => structuredClone(out) as { task: Record<string, unknown> & { checklist: Array<Record<string, unknown>> } };
    const extraTop = { ...copy(), secret: 1 };
    const extraNested = copy();
    extraNested.task.internal = 'x';
    const extraDeep = copy();
    extraDeep.task.checklist[0]!.rowid = 3;
    const wrongKind = copy();
    wrongKind.task.title = 5;
    const missing = copy();
    delete missing.task.title;
    const notFinite = copy();
    notFinite.task.version = Number.NaN;
    for (const bad of [extraTop, extraNested, extraDeep, wrongKind, missing, notFinite]) expect(check(bad)).toBe(false);
  });

  it('never passes a value that zod would change or refuse', () => {
    const schema = z.object({
      id: z.string(),
      n: z.number().optional(),
      tags: z.array(z.string()),
      kind: z.enum(['a', 'b']),
      parent: z.object({ id: z.string() }).nullable(),
      meta: z.record(z.string(), z.unknown()),
    });
    const check = shapeCheck(schema)!;
    const value = fc.record(
      {
        id: fc.oneof(fc.string(), fc.integer()),
        n: fc.oneof(fc.double(), fc.constant(undefined)),
        tags: fc.array(fc.oneof(fc.string(), fc.boolean())),
        kind: fc.constantFrom('a', 'b', 'c'),
        parent: fc.oneof(fc.constant(null), fc.record({ id: fc.string() }), fc.record({ id: fc.string(), x: fc.nat() })),
        meta: fc.dictionary(fc.string(), fc.jsonValue()),
        extra: fc.nat(),
      },
      { requiredKeys: ['id', 'tags', 'kind', 'parent', 'meta'] },
    );
    fc.assert(
      fc.property(value, (v) => {
        if (!check(v)) return;
        const parsed = schema.safeParse(v);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(v);
      }),
    );
  });
});
