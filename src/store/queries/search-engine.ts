/** The one part of the Tx port each engine brings itself: its full-text index (sqlite/search.ts, postgres/search.ts). */
import type { Kysely } from 'kysely';
import type { SearchAfter, TaskFilter, Tx } from '../../core/ports.js';
import type { DB } from '../schema.js';
import type { CountCache } from './task-list.js';

export interface SearchEngine {
  reindexTask(db: Kysely<DB>, uid: string, isNew?: boolean): Promise<void>;
  /**
   * Writes the search rows of tasks that have none yet (an import's new tasks, their labels,
   * comments and checklists stored), as reindexTask(uid, true) would for each, in as few
   * statements as the engine likes. `uids` may be many (a 100k-task import passes them all).
   */
  indexNewTasks(db: Kysely<DB>, uids: string[]): Promise<void>;
  removeFromIndex(db: Kysely<DB>, num: number): Promise<void>;
  search(db: Kysely<DB>, query: string, filter: TaskFilter, limit: number, after: SearchAfter | undefined, counts?: CountCache): ReturnType<Tx['search']>;
}
