/**
 * File reservations: a task may declare the paths it touches (`touches`), and a live claim reserves
 * them. claim_next passes over a ready task whose paths overlap another actor's live reservation,
 * claim_task refuses one (PATHS_RESERVED, unless forced), and check_paths tells an agent about to
 * edit files who holds them. Overlap is core/rules/path-patterns.ts.
 */
import * as z from 'zod';
import { lazy } from '../model/lazy.js';
import { nowIso, type Context } from '../context.js';
import { CairnError } from '../errors.js';
import type { LiveReservation, TaskRow, Tx } from '../ports.js';
import { overlapsBetween, patternsOverlap } from '../rules/path-patterns.js';
import { displayIdOf } from './hydrate.js';

/** What a claim would collide with: another actor's live claim whose paths overlap. */
export interface PathConflict {
  task: string;
  holder: string;
  expiresAt: string;
  /** Pairs: a path of the task being claimed, and the reserved path it overlaps. */
  overlaps: Array<{ path: string; reserved: string }>;
}

/** Other actors' live reservations that overlap `touches`; empty when the task declares none. */
export async function pathConflicts(tx: Tx, ctx: Context, row: Pick<TaskRow, 'uid' | 'touches'>, now: string, known?: LiveReservation[]): Promise<PathConflict[]> {
  if (row.touches.length === 0) return [];
  // A claim that reserves paths is judged against every live reservation at once: on PostgreSQL two
  // claims of overlapping tasks in different rows would otherwise both see none (SQLite has one writer).
  await tx.exclusive('reservations');
  const live = known ?? (await tx.liveReservations(now));
  const out: PathConflict[] = [];
  for (const r of live) {
    if (r.uid === row.uid || r.holder === ctx.actor) continue;
    const pairs = overlapsBetween(row.touches, r.touches);
    if (pairs.length) out.push({ task: r.id, holder: r.holder, expiresAt: r.expiresAt, overlaps: pairs.map((p) => ({ path: p.mine, reserved: p.theirs })) });
  }
  return out;
}

export function pathsReserved(row: TaskRow, conflicts: PathConflict[]): CairnError {
  const id = displayIdOf(row);
  const named = conflicts.map((c) => `${c.overlaps.map((o) => o.reserved).join(', ')} (${c.task}, ${c.holder} until ${c.expiresAt})`).join('; ');
  return new CairnError('PATHS_RESERVED', `Task ${id} touches paths another agent has reserved: ${named}. Working it now would edit the same files. Nothing was changed.`, {
    suggestions: [
      'claim_next {} takes a ready task whose paths are free',
      `check_paths {paths: [${row.touches.map((p) => JSON.stringify(p)).join(', ')}]} to see who holds what`,
      `claim_task {id: "${id}", force: true} to claim it anyway (history records it)`,
    ],
    details: { conflicts },
  });
}

export const CheckPathsInput = lazy(() =>
  z.object({
    paths: z.array(z.string().trim().min(1).max(1000)).min(1).max(100).describe('Repository-relative paths or globs you are about to edit'),
  }),
);

export const CheckPathsOutput = lazy(() =>
  z.object({
    held: z
      .array(z.object({ path: z.string(), reserved: z.string(), task: z.string(), holder: z.string(), expiresAt: z.string() }))
      .describe('Your paths under another live claim, with the reservation each overlaps'),
    free: z.array(z.string()).describe('Your paths nobody else reserves'),
    yours: z.array(z.object({ path: z.string(), reserved: z.string(), task: z.string() })).describe('Paths your own live claims reserve: free for you'),
  }),
);

/** Who holds what among `paths`: every live reservation of another actor that overlaps one of them. */
export async function checkPaths(ctx: Context, input: z.infer<ReturnType<typeof CheckPathsInput>>): Promise<z.infer<ReturnType<typeof CheckPathsOutput>>> {
  return ctx.store.read(async (tx) => {
    const all = await tx.liveReservations(nowIso(ctx));
    const live = all.filter((r) => r.holder !== ctx.actor);
    const own = all.filter((r) => r.holder === ctx.actor);
    const held: z.infer<ReturnType<typeof CheckPathsOutput>>['held'] = [];
    const yours: z.infer<ReturnType<typeof CheckPathsOutput>>['yours'] = [];
    const free: string[] = [];
    for (const path of input.paths) {
      const hits = live.flatMap((r) => r.touches.filter((t) => patternsOverlap(path, t)).map((reserved) => ({ path, reserved, task: r.id, holder: r.holder, expiresAt: r.expiresAt })));
      if (hits.length) held.push(...hits);
      else free.push(path);
      yours.push(...own.flatMap((r) => r.touches.filter((t) => patternsOverlap(path, t)).map((reserved) => ({ path, reserved, task: r.id }))));
    }
    return { held, free, yours };
  });
}
