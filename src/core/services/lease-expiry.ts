/**
 * A lease that runs out becomes a `task.claim_expired` event when it ends, not when someone next
 * reads the task: live views (the board, subscriptions) see the task free again on time. Every
 * serving process runs a LeaseWatch; the conditional mark (markLeaseLapsed) lets exactly one of
 * them announce each lease, so replicas and several stdio servers on one workspace agree.
 */
import { nowIso, type Context } from '../context.js';
import { record } from './activity.js';

/** Who the history names for an expiry: nobody acted, the clock did. */
export const LEASE_CLOCK_ACTOR = 'cairn';
const BATCH = 200;

/** Announces every lease ended by now and not yet announced; how many it announced. */
export async function announceLapsedLeases(ctx: Context): Promise<number> {
  const now = nowIso(ctx);
  // A read first: an idle workspace costs one indexed look, never the write lock.
  const next = await ctx.store.read((tx) => tx.nextLeaseEnd());
  if (next === null || next > now) return 0;
  return ctx.store.write(async (tx) => {
    let announced = 0;
    for (const lease of await tx.dueLeases(now, BATCH)) {
      if (!(await tx.markLeaseLapsed(lease))) continue;
      await record(
        tx,
        { ...ctx, actor: LEASE_CLOCK_ACTOR },
        {
          projectUid: lease.projectUid,
          taskUid: lease.uid,
          type: 'task.claim_expired',
          changes: { claim: { before: { actor: lease.holder, expiresAt: lease.expiresAt, generation: lease.generation }, after: null } },
        },
      );
      announced++;
    }
    return announced;
  });
}

export interface LeaseWatchOptions {
  /** The first look, after start (a stdio server keeps it off its start-up path). Default 0. */
  firstDelayMs?: number;
  /** The longest it waits between looks: a claim another process makes is seen within this. Leases last at least 10 s, so 5 s sees each before it ends. */
  maxWaitMs?: number;
  onError?: (err: unknown) => void;
  /** How many leases a look announced, when it announced any (the metrics count them). */
  onAnnounced?: (n: number) => void;
}

/** Wakes at the soonest lease end (and at least every maxWaitMs) and announces what ran out. */
export class LeaseWatch {
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;
  readonly #maxWait: number;

  constructor(
    private readonly ctx: Context,
    private readonly opts: LeaseWatchOptions = {},
  ) {
    this.#maxWait = opts.maxWaitMs ?? 5000;
  }

  start(): this {
    this.#schedule(this.opts.firstDelayMs ?? 0);
    return this;
  }

  /** Stops; resolves once a look in flight has ended, so the store can close after it. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(ms: number): void {
    // unref: the watch never keeps a process alive that has nothing else to do.
    this.#timer = setTimeout(() => {
      this.#running = this.#tick().finally(() => (this.#running = undefined));
    }, ms);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    let wait = this.#maxWait;
    try {
      const n = await announceLapsedLeases(this.ctx);
      if (n > 0) this.opts.onAnnounced?.(n);
      const next = await this.ctx.store.read((tx) => tx.nextLeaseEnd());
      if (next !== null) wait = Math.min(wait, Math.max(0, Date.parse(next) - this.ctx.clock.now().getTime()) + 5);
    } catch (err) {
      if (this.#stopped) return;
      this.opts.onError?.(err);
    }
    if (!this.#stopped) this.#schedule(wait);
  }
}
