// Timing helpers for the benchmark sections: warm up, run many iterations within a time budget, report percentiles.
import { performance } from 'node:perf_hooks';

/** Percentile (0–100) of an ascending-sorted array, nearest-rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/**
 * Calls `fn(i)` `warmup` times untimed, then up to `iterations` times (stopping early once
 * `budgetMs` has passed) and returns milliseconds per call; `setup(i)`, if given, runs untimed before each call. GC runs before timing starts so a
 * previous phase's garbage is not charged to this one.
 */
export async function measure(fn, { warmup = 100, iterations = 1000, budgetMs = 4000, setup } = {}) {
  for (let i = 0; i < warmup; i++) {
    await setup?.(i);
    await fn(i);
  }
  globalThis.gc?.();
  const times = [];
  // CPU time per call too: on a shared machine wall time includes waiting for a core, CPU time does not.
  const cpu = [];
  const deadline = performance.now() + budgetMs;
  for (let i = 0; i < iterations; i++) {
    // Untimed work before each call (e.g. a write, so the call meets a changed workspace).
    await setup?.(warmup + i);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn(warmup + i);
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    times.push(t1 - t0);
    cpu.push((c1.user + c1.system) / 1000);
    if (t1 > deadline) break;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / times.length, cpuP50: percentile(cpu, 50) };
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb() {
  return process.resourceUsage().maxRSS / 1024;
}
