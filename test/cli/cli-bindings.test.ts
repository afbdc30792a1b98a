/** In-process checks of the CLI's declarations: every op bound, flags derived from the schemas, docs in sync. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BINDINGS, HANDWRITTEN } from '../../src/cli/bindings.js';
import { commandReference, REFERENCE_END, REFERENCE_START } from '../../src/cli/docs-reference.js';
import { EXIT_CODES } from '../../src/cli/exit-codes.js';
import { EXTENSIONS } from '../../src/cli/extensions.js';
import { loadModule } from '../../src/cli/load-module.js';
import { commandWord } from '../../src/cli/main.js';
import { buildProgram } from '../../src/cli/program.js';
import { flagsFromShape } from '../../src/cli/schema-flags.js';
import { CairnError, ERROR_KINDS } from '../../src/core/errors.js';
import { findOp, OPS } from '../../src/ops/index.js';

describe('CLI bindings', () => {
  it('binds every op (or an extension runs it), and every binding names a real op and real fields', async () => {
    const bound = new Set(BINDINGS.flatMap((b) => [b.op, ...(b.alternate ? [b.alternate.op] : [])]));
    const byExtension = [...EXTENSIONS.flatMap((e) => e.ops ?? []), ...Object.keys(HANDWRITTEN)];
    // An op an extension runs has no generated command: two `cairn token` groups would clash.
    expect(byExtension.filter((n) => bound.has(n) || !findOp(n))).toEqual([]);
    expect(OPS.map((op) => op.name).filter((n) => !bound.has(n) && !byExtension.includes(n))).toEqual([]);
    expect(new Set(BINDINGS.map((b) => b.command)).size).toBe(BINDINGS.length);
    for (const b of BINDINGS) {
      const op = findOp(b.op)!;
      const fields = Object.keys(op.input.shape);
      for (const name of [...(b.omit ?? []), ...Object.keys(b.flags ?? {}), ...Object.keys(b.fixed ?? {})]) expect(fields, `${b.command}: ${name}`).toContain(name);
      expect(b.examples.length, b.command).toBeGreaterThan(0);
      for (const ex of b.examples) expect(ex.startsWith(`cairn ${b.command}`) || ex.includes(`cairn ${b.command} `), `${b.command}: ${ex}`).toBe(true);
    }
    // Building the program also checks positionals against fields and refuses clashing flags.
    const program = await buildProgram(undefined);
    expect(program.commands.map((c) => c.name())).toEqual(expect.arrayContaining(['init', 'add', 'project', 'mcp', 'serve', 'token']));
    expect(program.commands.filter((c) => c.name() === 'token')).toHaveLength(1);
    for (const command of Object.values(HANDWRITTEN)) expect(program.commands.filter((c) => c.name() === command)).toHaveLength(1);
  });

  it('derives flags from zod shapes: kebab names, numbers, nullable, lists, flattened objects, JSON', () => {
    const flags = new Map(flagsFromShape(findOp('update_task')!.input.shape as never).map((f) => [f.flag, f]));
    expect(flags.get('expected-version')).toMatchObject({ kind: 'number', path: ['expectedVersion'] });
    expect(flags.get('assignee')).toMatchObject({ kind: 'string', nullable: true });
    expect(flags.get('add-labels')).toMatchObject({ kind: 'list', split: true });
    expect(flags.get('anchors')).toMatchObject({ kind: 'list', split: false });
    expect(flags.get('links-pr-number')).toMatchObject({ kind: 'number', path: ['links', 'prNumber'] });
    expect(flags.get('priority')?.choices).toEqual(['none', 'low', 'medium', 'high', 'urgent']);
    const list = new Map(flagsFromShape(findOp('list_tasks')!.input.shape as never).map((f) => [f.flag, f]));
    expect(list.get('status')).toMatchObject({ kind: 'list', split: true });
    expect(list.get('include-done')).toMatchObject({ kind: 'boolean', defaultValue: false });
    const project = new Map(flagsFromShape(findOp('update_project')!.input.shape as never).map((f) => [f.flag, f]));
    expect(project.get('statuses')).toMatchObject({ kind: 'json', repeatable: true });
    expect(flagsFromShape(findOp('purge_task')!.input.shape as never).find((f) => f.flag === 'confirm')).toMatchObject({ kind: 'boolean' });
  });

  it('maps every error kind to a distinct non-zero exit code (1 invalid, 2 not found, 3 conflict)', () => {
    expect(EXIT_CODES).toMatchObject({ invalid: 1, not_found: 2, conflict: 3 });
    const kinds = new Set(Object.values(ERROR_KINDS));
    for (const k of kinds) expect(EXIT_CODES[k]).toBeGreaterThan(0);
    expect(new Set(Object.values(EXIT_CODES)).size).toBe(Object.keys(EXIT_CODES).length);
  });

  it('finds the command word past global options', () => {
    expect(commandWord(['--db', 'x.db', '--as', 'me', '--json', 'list', '--limit', '3'])).toBe('list');
    expect(commandWord(['--db=x.db', 'token', 'list'])).toBe('token');
    expect(commandWord(['--json'])).toBeUndefined();
  });

  it('reports a missing adapter module as a clear INTERNAL error', async () => {
    const err = await loadModule('../nowhere/missing-module.js', 'cairn nothing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CairnError);
    expect(err).toMatchObject({ code: 'INTERNAL', message: expect.stringContaining('cairn nothing is not available in this build') });
  });

  it('docs/cli.md holds the generated command reference (regenerate: npm run build && node dist/cli/docs-reference.js)', async () => {
    const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const generated = doc.slice(doc.indexOf(REFERENCE_START) + REFERENCE_START.length, doc.indexOf(REFERENCE_END)).trim();
    expect(generated, 'docs/cli.md is stale: run `npm run build && node dist/cli/docs-reference.js`').toBe((await commandReference()).trim());
  });
});

describe('CLI suggestions', () => {
  it('rewrites tool-call suggestions as commands and leaves other text alone', async () => {
    const { cliSuggestion } = await import('../../src/cli/cli-suggestions.js');
    expect(cliSuggestion('get_task {id: "API-1"}')).toBe('cairn show API-1');
    expect(cliSuggestion('search_tasks {query: "<words from the title>"} to find it by text')).toBe('cairn search "<words from the title>" to find it by text');
    expect(cliSuggestion('list_tasks to see task ids')).toBe('cairn list to see task ids');
    expect(cliSuggestion('add_dependency {taskId: "API-2", blockedBy: "API-1"}')).toBe('cairn block API-2 --by API-1');
    expect(cliSuggestion('update_task {id: "API-1", status: "todo"} to reopen it first')).toBe('cairn update API-1 --status todo to reopen it first');
    expect(cliSuggestion('Pick another key')).toBe('Pick another key');
  });
});
