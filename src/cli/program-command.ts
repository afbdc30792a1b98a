/**
 * `cairn <command>` for a binding (`ready`, `show`, `add`, `project list` …): the program with that
 * command alone, loading only its op's module. Building every command's flags and evaluating every op's
 * schemas would be most of such a command's start. The command's own parsing, help and errors are the
 * ones the full program gives it (test/cli/start-up-paths.test.ts compares them).
 */
import type { Command } from 'commander';
import { loadOp } from '../ops/op-modules.js';
import type { Op } from '../ops/op.js';
import { addBinding } from './binding-command.js';
import { BINDINGS } from './bindings.js';

/** Groups of two-word bindings (`project`). */
const GROUPS = new Set(BINDINGS.filter((b) => b.command.includes(' ')).map((b) => b.command.split(' ')[0]!));

/** Adds the binding `word` (or `word next`, for a group) names to `program`; false when there is none. */
export async function addSingleBinding(program: Command, word: string, next?: string): Promise<boolean> {
  const command = GROUPS.has(word) ? `${word} ${next}` : word;
  const b = BINDINGS.find((x) => x.command === command);
  if (!b) return false;
  const names = [b.op, ...(b.alternate ? [b.alternate.op] : [])];
  const ops = new Map<string, Op | undefined>(await Promise.all(names.map(async (n) => [n, await loadOp(n)] as const)));
  addBinding(program, new Map(), b, (n) => ops.get(n));
  return true;
}
