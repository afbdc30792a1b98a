/** The list of every operation; MCP tools, CLI commands, REST routes and docs are generated from it. */
import type { Op } from './op.js';
import { getTaskDocumentOp, submitHandoffOp } from './handoff-ops.js';
import { checkPathsOp, checkpointTaskOp } from './coordination-ops.js';
import { archiveTaskOp, changesSinceOp, deleteTaskOp, getProgressOp, listLabelsOp, purgeTaskOp, restoreTaskOp, taskHistoryOp } from './history-ops.js';
import { linkSourceOp, listLinksOp, unlinkSourceOp } from './link-ops.js';
import { archiveProjectOp, createProjectOp, getProjectOp, listProjectsOp, updateProjectOp } from './project-ops.js';
import { createTaskOp, getTaskOp, listTasksOp, nextTasksOp, searchTasksOp, updateTaskOp } from './task-ops.js';
import { createTokenOp, listTokensOp, revokeTokenOp } from './token-ops.js';
import { exportTasksOp, importTasksOp } from './transfer-ops.js';
import { addCommentOp, addDependencyOp, boardOverviewOp, claimNextOp, claimTaskOp, completeTaskOp, releaseTaskOp, removeDependencyOp, updateChecklistOp } from './work-ops.js';

export const OPS = [
  listTasksOp,
  getTaskOp,
  searchTasksOp,
  nextTasksOp,
  createTaskOp,
  updateTaskOp,
  claimTaskOp,
  claimNextOp,
  releaseTaskOp,
  completeTaskOp,
  addDependencyOp,
  removeDependencyOp,
  updateChecklistOp,
  addCommentOp,
  boardOverviewOp,
  listProjectsOp,
  getProjectOp,
  createProjectOp,
  taskHistoryOp,
  archiveTaskOp,
  deleteTaskOp,
  getProgressOp,
  checkPathsOp,
  checkpointTaskOp,
  submitHandoffOp,
  getTaskDocumentOp,
  updateProjectOp,
  archiveProjectOp,
  restoreTaskOp,
  purgeTaskOp,
  listLabelsOp,
  changesSinceOp,
  linkSourceOp,
  unlinkSourceOp,
  listLinksOp,
  createTokenOp,
  listTokensOp,
  revokeTokenOp,
  importTasksOp,
  exportTasksOp,
] as const satisfies readonly Op[];

export type AnyOp = (typeof OPS)[number];

const byName = new Map<string, Op>(OPS.map((op) => [op.name, op as unknown as Op]));

export function findOp(name: string): Op | undefined {
  return byName.get(name);
}

export { runOp, parseInput } from './run-op.js';
export { gateRefusal, type Gate, type Gated, type ReadOnlyReason } from './write-gate.js';
export { DEFAULT_TOOLSETS, TOOLSETS, type Op, type OpContext, type Toolset } from './op.js';
