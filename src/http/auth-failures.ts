/**
 * Failed bearer-token attempts, limited per client address: guessing secrets from one address
 * slows to a trickle, while a caller with a good token never meets this limit unless its address
 * keeps failing too. A token bucket per address (a burst of 10 failures, then one every 3 s); an
 * IPv6 address counts as its /64, and memory stays bounded (address-buckets.ts).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { addressKey, BucketMap } from './address-buckets.js';

export class AuthFailureLimiter {
  readonly #buckets: BucketMap;
  constructor(
    readonly burst = 10,
    readonly perSecond = 1 / 3,
    maxAddresses = 10_000,
  ) {
    this.#buckets = new BucketMap(burst, perSecond, maxAddresses);
  }

  /** Seconds the address must wait before its next attempt counts; 0 when it may try now. */
  retryAfter(addr: string, now = Date.now()): number {
    const key = addressKey(addr);
    if (!this.#buckets.has(key)) return 0;
    const t = this.#buckets.take(key, now).tokens;
    if (t >= this.burst) this.#buckets.forget(key); // fully refilled: forget it
    return t >= 1 ? 0 : Math.max(1, Math.ceil((1 - t) / this.perSecond));
  }

  /** Records a failed attempt from the address. */
  fail(addr: string, now = Date.now()): void {
    const b = this.#buckets.take(addressKey(addr), now);
    b.tokens = Math.max(0, b.tokens - 1);
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
