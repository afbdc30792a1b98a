/**
 * New tasks an import holds until it writes them together: many rows per statement
 * (TransferTx.insertTasks), and their search rows in one pass once everything is written.
 * Restored events (under their own seqs, so in any order) ride along.
 */
import type { Tx } from '../../ports.js';
import type { NewTask, StoredEvent } from '../../transfer-port.js';

/** Tasks held before one bulk write: enough that statements carry hundreds of rows. */
const SIZE = 256;

export class TaskBatch {
  #tasks: NewTask[] = [];
  #events: StoredEvent[] = [];
  /** Tasks added that have no search row yet. */
  readonly #unindexed = new Set<string>();

  constructor(private readonly tx: Tx) {}

  /** Whether `uid` is a task added here, indexed only by `finish`. */
  unindexed(uid: string): boolean {
    return this.#unindexed.has(uid);
  }

  /** A new task; one with a slug is written at once, so a taken slug is refused as SLUG_TAKEN naming its holder. */
  async add(task: NewTask): Promise<void> {
    this.#unindexed.add(task.row.uid);
    if (task.row.slug === null) {
      this.#tasks.push(task);
      if (this.#tasks.length >= SIZE) await this.flush();
      return;
    }
    await this.flush();
    await this.tx.insertTask(task.row, task.checklist);
    for (const c of task.comments) await this.tx.addComment(task.row.uid, c);
  }

  addEvents(events: StoredEvent[]): void {
    this.#events.push(...events);
  }

  /** Writes what is held, so reads see it. */
  async flush(): Promise<void> {
    if (this.#tasks.length) await this.tx.transfer.insertTasks(this.#tasks.splice(0));
    if (this.#events.length) await this.tx.transfer.insertEventsWithSeq(this.#events.splice(0));
  }

  /** Writes what is held and the search rows of every task added. */
  async finish(): Promise<void> {
    await this.flush();
    await this.tx.transfer.indexNewTasks([...this.#unindexed]);
  }
}
