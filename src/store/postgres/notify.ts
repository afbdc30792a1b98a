/**
 * LISTEN on the workspace's channel with one dedicated connection per process: every commit that
 * appends events notifies it (PostgresTx), so live views on every replica wake at once instead of
 * at their next poll. A lost connection is re-established with backoff, and listeners are woken
 * after each reconnect, since notifications sent meanwhile are gone.
 */
import pg from 'pg';
import type { PostgresTarget } from './connection.js';

export class CommitListener {
  readonly #listeners = new Set<() => void>();
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #failures = 0;

  constructor(
    private readonly target: PostgresTarget,
    private readonly channel: string,
  ) {
    void this.#connect();
  }

  add(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #wake(): void {
    for (const l of this.#listeners) {
      try {
        l();
      } catch {
        // A listener's failure is its own; the others still wake.
      }
    }
  }

  /** The LISTEN connection is up (reconnecting after a loss it is not). */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.target.connectionString });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    client.on('notification', () => this.#wake());
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      if (this.#closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.#client = client;
      this.#failures = 0;
      this.#wake();
    } catch {
      this.#lost(client);
    }
  }

  #lost(client: pg.Client): void {
    if (this.#client === client) this.#client = undefined;
    void client.end().catch(() => undefined);
    if (this.#closed || this.#retry) return;
    const ms = Math.min(5_000, 100 * 2 ** this.#failures++);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#connect();
    }, ms);
    this.#retry.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#listeners.clear();
    await this.#client?.end().catch(() => undefined);
    this.#client = undefined;
  }
}
