/**
 * Cairn as a library: open a workspace and call any operation in-process, with the same
 * validation, errors and results as the MCP tools, CLI and REST API.
 *
 * @example
 * import { openCairn } from 'cairn-tasks';
 * const cairn = openCairn({ db: '.cairn/cairn.db', actor: 'agent:sdk' });
 * await cairn.call('create_project', { key: 'API', name: 'API' });
 * const { task } = await cairn.call('create_task', { project: 'API', title: 'Add login' });
 * const { tasks } = await cairn.call('next_tasks', { project: 'API' });
 * await cairn.close();
 */
// The profiles' workflow templates, registered before any op runs (create_project and import name them).
import './profiles/templates.js';
import { userRegistry } from './registry/user-registry.js';
import { openForeignSqlite } from './foreign-sqlite.js';
import type * as z from 'zod';
import { systemClock, type Clock, type Store } from './core/ports.js';
import { CairnError } from './core/errors.js';
import { OPS, findOp, runOp, type AnyOp, type OpContext } from './ops/index.js';
import { findWorkspace, openStore } from './workspace.js';

type OpByName = { [O in AnyOp as O['name']]: O };
export type OpName = keyof OpByName;

export interface Cairn {
  /** Calls an operation by its tool name with raw (unvalidated) arguments. */
  call<N extends OpName>(name: N, args?: z.input<OpByName[N]['input']>): Promise<z.output<OpByName[N]['output']>>;
  readonly store: Store;
  close(): Promise<void>;
}

export interface OpenCairnOptions {
  db?: string;
  store?: Store;
  actor?: string;
  defaultProject?: string;
  readOnly?: boolean;
  clock?: Clock;
  cwd?: string;
}

/** This user's repository registry (read only: the library registers nothing), for targets named by package or repo slug. */
function withRegistry(): Pick<OpContext, 'repositories'> {
  const repositories = userRegistry(openStore);
  return repositories ? { repositories } : {};
}

export function openCairn(opts: OpenCairnOptions = {}): Cairn {
  const store = opts.store ?? openStore(findWorkspace({ db: opts.db, ...(opts.cwd ? { cwd: opts.cwd } : {}) }).path);
  const ctx: OpContext = {
    store,
    clock: opts.clock ?? systemClock,
    actor: opts.actor ?? 'library',
    openWorkspace: openStore,
    openForeignSqlite,
    ...withRegistry(),
    ...(opts.defaultProject ? { defaultProject: opts.defaultProject } : {}),
    ...(opts.readOnly ? { readOnly: true } : {}),
  };
  return {
    store,
    async call(name, args) {
      const op = findOp(String(name));
      if (!op) throw new CairnError('VALIDATION_ERROR', `Unknown operation ${String(name)}.`);
      return runOp(op, ctx, args) as never;
    },
    close: () => store.close(),
  };
}

export { CairnError, OPS, findWorkspace, openStore };
export type { Store };
export type { Task, TaskSummary } from './core/model/task.js';
export type { Project } from './core/model/project.js';
export type { ActivityEvent } from './core/model/activity.js';
