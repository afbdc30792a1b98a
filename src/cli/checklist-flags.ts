/** The `check` syntax: --add/--check/--uncheck/--toggle/--edit/--remove, turned into checklist ops in the order given. */
import { Option, type Command } from 'commander';
import { parseNumber } from './parse-values.js';

export type ChecklistOpInput = { op: string; index?: number | string; text?: string };

/** What the `ops` field is called in error messages on this command. */
export const CHECKLIST_FLAG_LABEL = '--add/--check/--uncheck/--toggle/--edit/--remove';

/** `--edit "2=New text"` → index 2, text "New text". */
function parseEdit(text: string): ChecklistOpInput {
  const at = text.indexOf('=');
  if (at < 0) return { op: 'edit', index: text, text: '' };
  return { op: 'edit', index: parseNumber(text.slice(0, at)), text: text.slice(at + 1) };
}

/**
 * Adds the flags to `cmd` and returns a reader for the ops. Every flag appends to one list owned by
 * this command instance, which keeps the order in which the flags were typed.
 */
export function addChecklistFlags(cmd: Command): () => ChecklistOpInput[] {
  const ops: ChecklistOpInput[] = [];
  const push =
    (make: (text: string) => ChecklistOpInput) =>
    (text: string): ChecklistOpInput[] => {
      ops.push(make(text));
      return ops;
    };
  const byIndex = (op: string) => push((text) => ({ op, index: parseNumber(text) }));
  cmd.addOption(new Option('--add <text>', 'append an item (repeatable)').argParser(push((text) => ({ op: 'add', text }))));
  cmd.addOption(new Option('--check <index>', 'tick item INDEX (0-based; repeatable)').argParser(byIndex('check')));
  cmd.addOption(new Option('--uncheck <index>', 'untick item INDEX').argParser(byIndex('uncheck')));
  cmd.addOption(new Option('--toggle <index>', 'flip item INDEX').argParser(byIndex('toggle')));
  cmd.addOption(new Option('--edit <index=text>', 'replace the text of item INDEX').argParser(push(parseEdit)));
  cmd.addOption(new Option('--remove <index>', 'remove item INDEX (later indexes shift up)').argParser(byIndex('remove')));
  return () => [...ops];
}
