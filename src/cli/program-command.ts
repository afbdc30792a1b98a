/**
 * `cairn <command>` for a one-word binding (`ready`, `show`, `add` …): the program with that command
 * alone, loading only its op's module. Building every command's flags and evaluating every op's
 * schemas was most of such a command's start; the command's own parsing, help and errors are the
 * ones the full program gives it (test/cli/start-up-paths.test.ts compares them).
 */
import type { Command } from 'commander';
import { loadOp } from '../ops/op-modules.js';
import type { Op } from '../ops/op.js';
import { addBinding } from './binding-command.js';
import { BINDINGS } from './bindings.js';

/** Adds the binding named `word` to `program`; false when `word` is not a one-word binding. */
export async function addSingleBinding(program: Command, word: string): Promise<boolean> {
  const b = BINDINGS.find((x) => x.command === word);
  if (!b) return false;
  const names = [b.op, ...(b.alternate ? [b.alternate.op] : [])];
  const ops = new Map<string, Op | undefined>(await Promise.all(names.map(async (n) => [n, await loadOp(n)] as const)));
  addBinding(program, new Map(), b, (n) => ops.get(n));
  return true;
}
