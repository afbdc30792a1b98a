/**
 * Where each operation is declared, so a caller that runs one op (a `cairn` command) can load that
 * op's module alone instead of every op's schemas. src/ops/index.ts loads them all, and evaluating
 * them is a large part of a CLI start. test/ops/op-modules.test.ts keeps this table in step with OPS.
 */
import type { Op } from './op.js';

type OpModule = Record<string, unknown>;

const MODULES = {
  tasks: () => import('./task-ops.js'),
  work: () => import('./work-ops.js'),
  projects: () => import('./project-ops.js'),
  history: () => import('./history-ops.js'),
  handoff: () => import('./handoff-ops.js'),
  coordination: () => import('./coordination-ops.js'),
  links: () => import('./link-ops.js'),
  tokens: () => import('./token-ops.js'),
  transfer: () => import('./transfer-ops.js'),
} satisfies Record<string, () => Promise<OpModule>>;

const TASKS = ['list_tasks', 'get_task', 'search_tasks', 'next_tasks', 'create_task', 'update_task'];
const WORK = ['claim_task', 'claim_next', 'release_task', 'complete_task', 'add_dependency', 'remove_dependency', 'update_checklist', 'add_comment', 'board_overview'];
const PROJECTS = ['list_projects', 'get_project', 'create_project', 'update_project', 'archive_project'];
const HISTORY = ['task_history', 'archive_task', 'delete_task', 'get_progress', 'restore_task', 'purge_task', 'list_labels', 'changes_since'];
const HANDOFF = ['submit_handoff', 'get_task_document'];
const COORDINATION = ['check_paths', 'checkpoint_task'];
const LINKS = ['link_source', 'unlink_source', 'list_links'];
const TOKENS = ['create_token', 'list_tokens', 'revoke_token'];
const TRANSFER = ['import_tasks', 'export_tasks'];

/** Op name → the module that declares it. */
export const OP_MODULE: ReadonlyMap<string, keyof typeof MODULES> = new Map([
  ...TASKS.map((n) => [n, 'tasks'] as const),
  ...WORK.map((n) => [n, 'work'] as const),
  ...PROJECTS.map((n) => [n, 'projects'] as const),
  ...HISTORY.map((n) => [n, 'history'] as const),
  ...HANDOFF.map((n) => [n, 'handoff'] as const),
  ...COORDINATION.map((n) => [n, 'coordination'] as const),
  ...LINKS.map((n) => [n, 'links'] as const),
  ...TOKENS.map((n) => [n, 'tokens'] as const),
  ...TRANSFER.map((n) => [n, 'transfer'] as const),
]);

const isOp = (v: unknown, name: string): v is Op => typeof v === 'object' && v !== null && (v as { name?: unknown }).name === name && 'input' in v;

/** The op named `name`, loading only the module that declares it; undefined for an unknown name. */
export async function loadOp(name: string): Promise<Op | undefined> {
  const module = OP_MODULE.get(name);
  if (!module) return undefined;
  return Object.values(await MODULES[module]()).find((v) => isOp(v, name));
}
