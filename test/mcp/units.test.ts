/** Unit tests for the MCP adapter's pure parts: toolset parsing, schema trimming, change → URI mapping, text clipping. */
import { describe, expect, it } from 'vitest';
import { compactJsonSchema } from '../../src/mcp/compact-schema.js';
import { clip } from '../../src/mcp/render.js';
import { changesOf } from '../../src/mcp/subscriptions.js';
import { parseToolsets, selectOps } from '../../src/mcp/toolsets.js';
import { idOfOversized } from '../../src/mcp/stdio-guard.js';

const event = (type: string, extra: Record<string, unknown> = {}) => ({ seq: 1, at: '', actor: 'a', project: 'API', taskId: 'API-1', type, changes: {}, ...extra });

describe('toolsets', () => {
  it('parses default, lists and all; refuses unknown names', () => {
    expect(parseToolsets(undefined)).toEqual(['tasks', 'projects']);
    expect(parseToolsets(' History , tasks ')).toEqual(['tasks', 'history']);
    expect(parseToolsets('default,admin')).toEqual(['tasks', 'projects', 'admin']);
    expect(parseToolsets('all')).toEqual(['tasks', 'projects', 'history', 'coordination', 'handoff', 'admin']);
    expect(() => parseToolsets('tasks,bogus')).toThrow(/Unknown toolset "bogus"/);
  });
  it('read-only keeps only reads', () => {
    expect(selectOps(['tasks'], true).every((o) => o.readOnly)).toBe(true);
    expect(selectOps(['tasks'], false).some((o) => !o.readOnly)).toBe(true);
  });
});

describe('compactJsonSchema', () => {
  it('drops $schema, patterns that spell a format, and descriptions that only repeat an enum', () => {
    const out = compactJsonSchema({
      $schema: 'x',
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time', pattern: '^…$' },
        kind: { type: 'string', enum: ['a', 'b'], description: 'a|b' },
        cat: { type: 'string', enum: ['a', 'b'], description: 'Category: a|b' },
        many: {
          anyOf: [
            { type: 'string', description: 'One' },
            { type: 'array', items: { type: 'string', description: 'One' } },
          ],
        },
      },
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        kind: { type: 'string', enum: ['a', 'b'] },
        cat: { type: 'string', enum: ['a', 'b'], description: 'Category' },
        many: {
          anyOf: [
            { type: 'string', description: 'One' },
            { type: 'array', items: { type: 'string' } },
          ],
        },
      },
    });
  });
});

describe('changesOf', () => {
  it('maps events to task, board and project-list URIs; dependency edges touch both ends', () => {
    const r = changesOf([event('dependency.added', { changes: { blockedBy: { before: [], after: ['API-2'] } } })]);
    expect(r.updated.sort()).toEqual(['cairn://projects', 'cairn://projects/API', 'cairn://tasks/API-1', 'cairn://tasks/API-2']);
    expect(r.listChanged).toBe(false);
  });
  it('signals list_changed for project creation, archive and restore only', () => {
    expect(changesOf([event('project.created', { taskId: null })]).listChanged).toBe(true);
    expect(changesOf([event('project.archived', { taskId: null })]).listChanged).toBe(true);
    expect(changesOf([event('project.updated', { taskId: null })]).listChanged).toBe(false);
  });
});

describe('clip', () => {
  it('keeps short text and cuts long text with a note saying where the rest is', () => {
    expect(clip('short', 'x')).toBe('short');
    expect(clip('a'.repeat(2500), 'get_task has it')).toBe(`${'a'.repeat(2000)}… [cut: 500 more characters; get_task has it]`);
  });
});

describe("an oversized stdio line's id (stdio-guard.ts)", () => {
  const b = (s: string) => Buffer.from(s);
  it('is read from the start or the end of the line, never from inside it', () => {
    expect(idOfOversized(b('{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"aaa'), b('aaa"}}'))).toBe(7);
    expect(idOfOversized(b('{"id":"k-1","jsonrpc":"2.0","method'), b('zz"}}'))).toBe('k-1');
    expect(idOfOversized(b('{"method":"tools/call","params":{"arguments":{"x":"'), b('"},"id":"inner"}},"jsonrpc":"2.0","id":42}\r'))).toBe(42);
    // Only nested ids: none found rather than a wrong one.
    expect(idOfOversized(b('{"method":"tools/call","params":{"id":3,"x":"'), b('xx","id":5}}'))).toBeNull();
    expect(idOfOversized(b('\u0000\u0000\u0000'), b('\u0000'))).toBeNull();
  });
});
