/** Adds one binding's command to the program: its flags from the op's schema, its help, and the action that runs it. */
import type { Command } from 'commander';
import { CairnError } from '../core/errors.js';
import type { Op } from '../ops/op.js';
import type { Binding } from './bindings.js';
import { bindCommand, type BoundCommand } from './op-command.js';
import { runBound } from './run-bound.js';

const GROUPS: Record<string, string> = { project: 'Manage projects: list | create | show | update | archive' };

export function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/**
 * `ops` resolves the binding's op and its alternate's (the full program passes every op; a single
 * command's program only the ones it loaded). `groups` collects group commands (`project`) across calls.
 */
export function addBinding(program: Command, groups: Map<string, Command>, b: Binding, ops: (name: string) => Op | undefined): void {
  const op = ops(b.op);
  if (!op) throw new Error(`Binding "${b.command}" names unknown op ${b.op}`);
  const words = b.command.split(' ');
  let parent = program;
  if (words.length === 2) {
    const group = words[0]!;
    if (!groups.has(group)) groups.set(group, program.command(group).description(GROUPS[group] ?? group));
    parent = groups.get(group)!;
  }
  const cmd = parent
    .command(words[words.length - 1]!)
    .summary(b.summary)
    .description(`${b.summary}.\nRuns the ${op.name} operation; --json prints its output unchanged.`);
  const bound = bindCommand(cmd, b, op);
  const alt = b.alternate && bindAlternate(cmd, b, ops);
  cmd.addHelpText('after', examples(b.examples));
  cmd.action(async (...args: unknown[]) => {
    const self = args[args.length - 1] as Command;
    const positionals = args.slice(0, -2);
    const opts = self.optsWithGlobals();
    if (alt && opts[alt.binding.alternate!.flag] === true) {
      if (positionals.some((a) => a !== undefined)) {
        throw new CairnError('VALIDATION_ERROR', `cairn ${b.command} takes an id or --${alt.binding.alternate!.flag}, not both.`, { suggestions: [`cairn ${b.command} --help`] });
      }
      await runBound(alt, [], opts);
    } else if (alt && positionals.every((a) => a === undefined)) {
      const flag = alt.binding.alternate!.flag;
      throw new CairnError('VALIDATION_ERROR', `cairn ${b.command} needs a task id, or --${flag} (${alt.binding.alternate!.description.replace(/ \(.*$/, '')}). Nothing was changed.`, {
        suggestions: [`cairn ${b.command} <id>  (cairn ready lists what is ready)`, `cairn ${b.command} --${flag}`],
      });
    } else await runBound(bound, positionals, opts);
  });
}

/** The alternate op's flags on the same command (those it shares are bound once), and the switch that selects it. */
function bindAlternate(cmd: Command, b: Binding, ops: (name: string) => Op | undefined): BoundCommand {
  const spec = b.alternate!;
  const op = ops(spec.op);
  if (!op) throw new Error(`Binding "${b.command}" names unknown alternate op ${spec.op}`);
  const taken = new Set(cmd.options.map((o) => o.long ?? ''));
  cmd.option(`--${spec.flag}`, spec.description);
  const { alternate, ...rest } = b;
  return bindCommand(cmd, { ...rest, alternate, args: [], command: `${b.command} --${spec.flag}` }, op, taken);
}
