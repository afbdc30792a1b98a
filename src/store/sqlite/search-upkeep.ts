/**
 * Keeps the full-text index in few segments. FTS5 writes a small segment per committing
 * transaction and, with automerge off (migration 9: merging inside writes causes write latency
 * spikes), merges a level only when 16 segments share it. A workspace grown by writes, or by a bulk
 * load, then holds dozens of segments, and every common term is read from each of them, so ranked
 * search is slower than on a merged index (docs/benchmarks.md, core section).
 *
 * The merging is done off the request path: by the checkpointer's worker when the process has been
 * quiet for a moment, and by a writing process as it closes (a CLI command), a few bounded steps at
 * a time. Each step is its own short write transaction that merges ~16 leaf pages of the fullest
 * level ('merge' with FTS5's default usermerge of 4), so a level never keeps more than 3 segments.
 */
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Runs merge steps until the index has nothing left to merge (true), `maxSteps` ran, `stop()`
 * said so, or another connection held the write lock (false: try again later). Never throws.
 */
export function tidySearchIndex(db: BetterSqlite3.Database, maxSteps: number, stop: () => boolean = () => false): boolean {
  let structure: BetterSqlite3.Statement;
  let merge: BetterSqlite3.Statement;
  try {
    structure = db.prepare('SELECT block FROM task_search_data WHERE id = 10').pluck();
    merge = db.prepare("INSERT INTO task_search (task_search, rank) VALUES ('merge', 16)");
  } catch {
    return true; // no index to tidy (not a workspace this version made): nothing to retry
  }
  for (let step = 0; step < maxSteps && !stop(); step++) {
    if (db.inTransaction) return false;
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch {
      return false;
    }
    let before: unknown;
    let after: unknown;
    try {
      before = structure.get();
      merge.run();
      after = structure.get();
      db.exec('COMMIT');
    } catch {
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } catch {
        // The connection is going away; nothing was committed.
      }
      return false;
    }
    // A step that found nothing to merge leaves the structure record as it was.
    if (before instanceof Uint8Array && after instanceof Uint8Array && Buffer.compare(before, after) === 0) return true;
  }
  return false;
}

/** Merge steps a writing process takes as it closes: each is short even in a large workspace, and a tidy index needs none. */
export const CLOSING_STEPS = 8;
