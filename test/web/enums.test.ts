/**
 * The board keeps its own copy of the core's vocabularies (it imports no server code, to stay a
 * small bundle): each copy must equal the core's list, in the core's order (the board sorts by it).
 */
import { describe, expect, it } from 'vitest';
import { Evidence } from '../../src/core/model/coordination.js';
import { KINDS, PRIORITIES, PrState } from '../../src/core/model/task.js';
import { CATEGORIES } from '../../src/core/model/workflow.js';
import * as board from '../../src/web/lib/types.js';

describe("the board's copy of the core's enums", () => {
  it('categories, kinds, priorities, PR states and evidence statuses are the core lists', () => {
    expect(board.CATEGORIES).toEqual(CATEGORIES);
    expect(board.KINDS).toEqual(KINDS);
    expect(board.PRIORITIES).toEqual(PRIORITIES);
    expect(board.PR_STATES).toEqual(PrState.options);
    expect(board.EVIDENCE_STATUSES).toEqual((Evidence().shape.status as { options: readonly string[] }).options);
  });
});
