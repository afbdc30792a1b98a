/** Applies a batch of checklist operations to a list, all or nothing: the first bad op throws and nothing changes. */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import { CairnError } from '../errors.js';
import { ChecklistText, type ChecklistItem } from '../model/task.js';

export const ChecklistOp = lazy(() =>
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('add'), text: ChecklistText, index: z.number().int().min(0).optional().describe('For add: insert before it') }),
    z.object({ op: z.literal('check'), index: z.number().int().min(0) }),
    z.object({ op: z.literal('uncheck'), index: z.number().int().min(0) }),
    z.object({ op: z.literal('toggle'), index: z.number().int().min(0) }),
    z.object({ op: z.literal('edit'), index: z.number().int().min(0), text: ChecklistText }),
    z.object({ op: z.literal('remove'), index: z.number().int().min(0) }),
  ]),
);
export type ChecklistOp = z.infer<ReturnType<typeof ChecklistOp>>;
export const ChecklistOps = lazy(() => z.array(ChecklistOp()).min(1, 'give at least one checklist op').max(200, 'at most 200 ops per batch'));

interface Item {
  text: string;
  checked: boolean;
}

/**
 * Ops apply in order, each seeing the list as the previous op left it (so indexes shift after add/remove).
 * Throws CHECKLIST_INDEX_OUT_OF_RANGE naming the op and index; the input list is never mutated.
 */
export function applyChecklistOps(items: readonly ChecklistItem[], ops: readonly ChecklistOp[], taskId = 'the task'): ChecklistItem[] {
  const list: Item[] = items.map((i) => ({ text: i.text, checked: i.checked }));
  ops.forEach((op, n) => {
    const outOfRange = (index: number): never => {
      throw new CairnError(
        'CHECKLIST_INDEX_OUT_OF_RANGE',
        `Checklist op #${n} (${op.op}) uses index ${index}, but ${taskId} has ${list.length} item${list.length === 1 ? '' : 's'} at that point (valid: ${list.length === 0 ? 'none' : `0–${list.length - 1}`}). No change was made.`,
        { suggestions: [`get_task to see the current checklist of ${taskId}, then resend the batch with valid indexes`], details: { opIndex: n, index, length: list.length } },
      );
    };
    switch (op.op) {
      case 'add': {
        const at = op.index ?? list.length;
        if (at > list.length) outOfRange(at);
        list.splice(at, 0, { text: op.text, checked: false });
        break;
      }
      case 'remove':
        if (op.index >= list.length) outOfRange(op.index);
        list.splice(op.index, 1);
        break;
      default: {
        const item = list[op.index] ?? outOfRange(op.index);
        if (op.op === 'check') item.checked = true;
        else if (op.op === 'uncheck') item.checked = false;
        else if (op.op === 'toggle') item.checked = !item.checked;
        else item.text = op.text;
      }
    }
  });
  return list.map((i, index) => ({ index, text: i.text, checked: i.checked }));
}
