/**
 * Failed bearer-token attempts, limited per client address: guessing secrets from one address
 * slows to a trickle, while a caller with a good token never meets this limit unless its address
 * keeps failing too. A token bucket per address (a burst of 10 failures, then one every 3 s).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

interface Bucket {
  tokens: number;
  at: number;
}

export class AuthFailureLimiter {
  readonly #buckets = new Map<string, Bucket>();
  constructor(
    readonly burst = 10,
    readonly perSecond = 1 / 3,
  ) {}

  #bucket(addr: string, now: number): Bucket {
    const b = this.#buckets.get(addr) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    return b;
  }

  /** Seconds the address must wait before its next attempt counts; 0 when it may try now. */
  retryAfter(addr: string, now = Date.now()): number {
    const b = this.#buckets.get(addr);
    if (!b) return 0;
    const t = this.#bucket(addr, now).tokens;
    if (t >= this.burst) this.#buckets.delete(addr); // fully refilled: forget it
    return t >= 1 ? 0 : Math.max(1, Math.ceil((1 - t) / this.perSecond));
  }

  /** Records a failed attempt from the address. */
  fail(addr: string, now = Date.now()): void {
    const b = this.#bucket(addr, now);
    b.tokens = Math.max(0, b.tokens - 1);
    this.#buckets.set(addr, b);
    if (this.#buckets.size > 10_000) this.#buckets.clear(); // bounded memory under address churn
  }
}

/** The client's address as the socket reports it ('unknown' off Node, e.g. in app.request tests). */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
