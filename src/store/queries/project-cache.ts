/**
 * Projects and their workflows, remembered between transactions. Nearly every operation resolves
 * a project by key, and a create reads the project's statuses too. Those two queries are a visible
 * share of a create or a list, for rows that change only a few times in a workspace's life.
 *
 * Valid while no other connection has committed (PRAGMA data_version, read by the engine at the
 * start of each transaction) and this one has not changed a project or a workflow: a transaction
 * that does clears it and stops filling it until it ends, so a rollback cannot leave its rows
 * behind. A project's sequence counter is not part of the rows kept here (allocateSeq reads it).
 */
import type { ProjectRow } from '../../core/ports.js';
import type { Status } from '../../core/model/workflow.js';

export class ProjectCache {
  #version: number | undefined;
  readonly #byKey = new Map<string, ProjectRow>();
  readonly #byUid = new Map<string, ProjectRow>();
  readonly #statuses = new Map<string, readonly Status[]>();
  #generation = 0;

  /** Counts clears: it moves whenever a project may have changed, by this connection or another. */
  get generation(): number {
    return this.#generation;
  }

  /** Called at the start of each transaction with the connection's data_version. */
  sync(dataVersion: number): void {
    if (dataVersion !== this.#version) {
      this.clear();
      this.#version = dataVersion;
    }
  }

  /** Forgets every row, and the version they were read at (a reopened connection counts data_version afresh). */
  clear(): void {
    this.#generation++;
    this.#version = undefined;
    this.#byKey.clear();
    this.#byUid.clear();
    this.#statuses.clear();
  }

  project(by: 'key' | 'uid', value: string): ProjectRow | undefined {
    return (by === 'key' ? this.#byKey : this.#byUid).get(value);
  }

  /** Frozen: the same row answers later transactions, so no caller may change it in place. */
  rememberProject(row: ProjectRow): ProjectRow {
    Object.freeze(row.aliases);
    Object.freeze(row);
    this.#byKey.set(row.key, row);
    this.#byUid.set(row.uid, row);
    return row;
  }

  statuses(projectUid: string): readonly Status[] | undefined {
    return this.#statuses.get(projectUid);
  }

  rememberStatuses(projectUid: string, statuses: Status[]): readonly Status[] {
    for (const s of statuses) Object.freeze(s);
    this.#statuses.set(projectUid, Object.freeze(statuses));
    return statuses;
  }
}
