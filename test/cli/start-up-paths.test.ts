/** The CLI's quick paths give what the full program gives: one command built alone, ops loaded one at a time, `cairn mcp` without commander. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { BINDINGS } from '../../src/cli/bindings.js';
import { plainMcpOptions } from '../../src/cli/commands/mcp-fast.js';
import { buildProgram } from '../../src/cli/program.js';
import { lightProgram } from '../../src/cli/program-base.js';
import { OPS } from '../../src/ops/index.js';
import { loadOp, OP_MODULE } from '../../src/ops/op-modules.js';
import { cliHarness } from './cli-harness.js';

function described(cmd: Command): unknown {
  return {
    help: cmd.helpInformation(),
    options: cmd.options.map((o) => [o.flags, o.description, o.hidden, o.defaultValue]),
    args: cmd.registeredArguments.map((a) => [a.name(), a.required, a.variadic, a.description]),
  };
}

describe('start-up paths', () => {
  it('a read command loads neither node:crypto nor node:child_process (src/core/lazy-builtins.ts)', () => {
    const h = cliHarness();
    try {
      expect(h.run(['project', 'create', 'RD', 'Reads']).code).toBe(0);
      expect(h.run(['add', 'Token refresh', '--project', 'RD']).code).toBe(0);
      // What the process loaded, written as it exits: a preload changes nothing the command does.
      const preload = join(h.dir, 'modules.cjs');
      writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, `\\nMODULES ${JSON.stringify(process.moduleLoadList)}\\n`));\n");
      for (const args of [
        ['ready', '--project', 'RD'],
        ['list', '--project', 'RD'],
        ['show', 'RD-1'],
        ['search', 'token'],
      ]) {
        const r = h.run(args, { env: { NODE_OPTIONS: `--require ${preload}` } });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stdout, args.join(' ')).toContain('RD-1');
        const loaded = JSON.parse(/MODULES (.*)/.exec(r.stderr)![1]!) as string[];
        expect(loaded.length, args.join(' ')).toBeGreaterThan(20);
        expect(
          loaded.filter((m) => /^NativeModule (crypto|child_process)$/.test(m)),
          args.join(' '),
        ).toEqual([]);
      }
    } finally {
      h.cleanup();
    }
  });

  it('loads every op from its own module, the same object the full list holds', async () => {
    expect([...OP_MODULE.keys()].sort()).toEqual(OPS.map((op) => op.name).sort());
    for (const op of OPS) expect(await loadOp(op.name), op.name).toBe(op);
    expect(await loadOp('no_such_op')).toBeUndefined();
  });

  it('builds a bound command alone exactly as the full program builds it', async () => {
    expect(BINDINGS.length).toBeGreaterThan(25);
    for (const { command } of BINDINGS) {
      const [word, next] = command.split(' ') as [string, string | undefined];
      const fullProgram = await buildProgram(word);
      const alone = (await lightProgram(word, next))!;
      expect(
        alone.commands.map((c) => c.name()),
        command,
      ).toEqual([word]);
      expect(alone.options.map((o) => o.flags)).toEqual(fullProgram.options.map((o) => o.flags));
      let full = fullProgram.commands.find((c) => c.name() === word)!;
      let mine = alone.commands[0]!;
      if (next) {
        expect(mine.description(), command).toBe(full.description());
        expect(
          mine.commands.map((c) => c.name()),
          command,
        ).toEqual([next]);
        full = full.commands.find((c) => c.name() === next)!;
        mine = mine.commands[0]!;
      }
      expect(described(mine), command).toEqual(described(full));
    }
    // A group without a known subcommand, built-ins and unknown words take the full program.
    for (const [word, next] of [['project', undefined], ['project', 'nope'], ['init'], ['export'], ['completion'], ['nope']]) {
      expect(await lightProgram(word!, next), `${word} ${next}`).toBeUndefined();
    }
  });

  it('takes the `cairn mcp` fast path only for a command line commander accepts as is', () => {
    expect(plainMcpOptions(['mcp'])).toEqual({});
    expect(plainMcpOptions(['--db', 'x.db', 'mcp', '--toolsets', 'all', '--read-only', '--as', 'agent:a', '--project=API', '--json'])).toEqual({
      db: 'x.db',
      toolsets: 'all',
      readOnly: true,
      actor: 'agent:a',
      project: 'API',
    });
    expect(plainMcpOptions(['mcp', '--profile', 'castle', '--remote', 'http://127.0.0.1:7420'])).toEqual({ profile: 'castle', remote: 'http://127.0.0.1:7420' });
    for (const args of [['mcp', '--help'], ['mcp', '-h'], ['mcp', '--bogus'], ['mcp', 'extra'], ['mcp', '--'], ['mcp', '--read-only=yes'], ['mcp', '--db'], ['mcp-config'], ['mcp', '-V']]) {
      expect(plainMcpOptions(args), args.join(' ')).toBeUndefined();
    }
  });
});
