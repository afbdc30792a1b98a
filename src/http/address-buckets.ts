/**
 * Token buckets keyed by client (an address or a token), in bounded memory. Past the bound the
 * bucket touched longest ago goes: it has had the longest time to refill, so it is the one whose
 * state matters least. Clearing them all at once would let a caller cycling through addresses (easy
 * with IPv6) reset the brute-force limit for everyone. IPv6 addresses are keyed by their /64, the
 * block one host usually holds, so cycling within it buys nothing.
 */
import { isIPv6 } from 'node:net';

export interface Bucket {
  tokens: number;
  at: number;
}

/** The key a client address is limited under: IPv4 as it is (also when mapped into IPv6), IPv6 by its /64. */
export function addressKey(addr: string): string {
  const a = addr.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return mapped[1]!;
  if (!isIPv6(a)) return a;
  const [head = '', tail = ''] = a.split('::') as [string, string?];
  const left = head ? head.split(':') : [];
  const right = a.includes('::') && tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export class BucketMap {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    readonly burst: number,
    readonly perSecond: number,
    readonly max = 10_000,
  ) {}

  get size(): number {
    return this.#buckets.size;
  }

  has(key: string): boolean {
    return this.#buckets.has(key);
  }

  /** The key's bucket refilled to `now`, made the most recently used (a new one starts full). */
  take(key: string, now: number): Bucket {
    const b = this.#buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    // Re-inserted, so the Map's order is least recently used first.
    this.#buckets.delete(key);
    this.#buckets.set(key, b);
    while (this.#buckets.size > this.max) this.#buckets.delete(this.#buckets.keys().next().value!);
    return b;
  }

  forget(key: string): void {
    this.#buckets.delete(key);
  }
}
