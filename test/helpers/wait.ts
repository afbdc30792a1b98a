/**
 * Waiting on events instead of on the clock. A test waits for the thing it expects to happen, with a
 * ceiling generous enough for a loaded two-core machine; the ceiling only turns a hang into a
 * failure, it never asserts how fast anything is.
 */

/** The ceiling for an event that must come: far above any normal latency, well below the test timeout. */
export const EVENTUALLY_MS = 30_000;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resolves once `check` holds (polled every `every` ms); throws naming `what` after `ms`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what = 'condition', ms = EVENTUALLY_MS, every = 10): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not met within ${ms} ms`);
    await sleep(every);
  }
}
