/**
 * Claims that exclude: while one actor holds a live lease, nobody else writes the task (comments and
 * dependency edges aside), and a holder who lost the lease to another claim is fenced out, even for
 * one last write. commitTaskChange asks here before every task write; claims.ts for takeovers.
 */
import type { Context } from '../context.js';
import { CairnError } from '../errors.js';
import type { TaskRow, Tx } from '../ports.js';
import { isClaimLive } from '../rules/readiness.js';
import { displayIdOf } from './hydrate.js';

/** Events that start or end an actor's hold on a task: the latest of them says whether it still holds one. */
const HOLD_EVENTS = new Set(['task.claimed', 'task.claim_renewed', 'task.released', 'task.completed', 'task.deleted']);
const HISTORY_SCAN = 500;

/**
 * Whether `actor` claimed this task and never let go (released, completed, deleted) since: its lease
 * was then lost to the claim the task carries now. Read from the task's history, newest first; only
 * asked when the stored claim names someone else, so ordinary writes read nothing.
 */
async function lostLease(tx: Tx, uid: string, actor: string): Promise<boolean> {
  const events = await tx.events({ taskUid: uid, limit: HISTORY_SCAN, desc: true });
  for (const e of events) {
    if (e.actor !== actor || !HOLD_EVENTS.has(e.type)) continue;
    return e.type === 'task.claimed' || e.type === 'task.claim_renewed';
  }
  return false;
}

function claimedByOther(row: TaskRow, live: boolean, actor: string, lost: boolean): CairnError {
  const id = displayIdOf(row);
  const holder = row.claimedBy;
  const details = { holder, expiresAt: row.claimExpiresAt, generation: row.claimGeneration };
  if (lost && holder === null) {
    return new CairnError('LEASE_LOST', `Your claim on ${id} ended and the task moved on without you (it is ${row.status} now, unclaimed): your work on it may be duplicated. Nothing was changed.`, {
      suggestions: [`task_history {id: "${id}"} to see who changed it`, `claim_task {id: "${id}"} to claim it again, then retry`],
      details,
    });
  }
  if (lost) {
    return new CairnError(
      'LEASE_LOST',
      `Your claim on ${id} ended and ${holder} claimed it since (generation ${row.claimGeneration}${live ? `, until ${row.claimExpiresAt}` : ', now lapsed'}): your work on it may be duplicated. Nothing was changed.`,
      {
        suggestions: [
          `get_task {id: "${id}"} to see what ${holder} did`,
          live ? `add_comment {id: "${id}", body: "..."} to hand your findings to ${holder}` : `claim_task {id: "${id}"} to claim it again, then retry`,
        ],
        details,
      },
    );
  }
  return new CairnError(
    'CLAIMED_BY_OTHER',
    `Task ${id} is claimed by ${holder} until ${row.claimExpiresAt}; while the lease lasts only ${holder} changes it (you are ${actor}). Nothing was changed.`,
    {
      suggestions: [
        `add_comment {id: "${id}", body: "..."}: comments are open to everyone`,
        `claim_task {id: "${id}", takeover: true} to take it over (history records it; needs a token that may act as anyone)`,
        'claim_next {} to take another ready task',
      ],
      details,
    },
  );
}

/**
 * Refuses a write to `row` by anyone but the holder of its live claim (CLAIMED_BY_OTHER), and by an
 * earlier holder whose claim someone else replaced or ended (LEASE_LOST). A lapsed lease nobody
 * reclaimed leaves the task open to all, its holder included.
 */
export async function assertMayWrite(tx: Tx, ctx: Context, row: TaskRow, now: string): Promise<void> {
  const holder = row.claimedBy;
  if (holder === ctx.actor) return;
  // Unclaimed: open to all, unless the writer held a claim that someone else ended since (completed,
  // released, claimed and let go). Only a task that was ever claimed can have such a writer.
  if (holder === null) {
    if (row.claimGeneration > 0 && (await lostLease(tx, row.uid, ctx.actor))) throw claimedByOther(row, false, ctx.actor, true);
    return;
  }
  const live = isClaimLive({ actor: holder, expiresAt: row.claimExpiresAt ?? '' }, now);
  const lost = await lostLease(tx, row.uid, ctx.actor);
  if (live || lost) throw claimedByOther(row, live, ctx.actor, lost);
}

/** A takeover (claim or release of another's live claim) needs a caller who may act as anyone. */
export function assertMayTakeOver(ctx: Context, row: TaskRow, what: 'take over' | 'release'): void {
  if (ctx.mayTakeOver !== false) return;
  const id = displayIdOf(row);
  throw new CairnError('FORBIDDEN', `Only a token that may act as any actor (scope "admin") may ${what} ${row.claimedBy}'s live claim on ${id}; yours acts as ${ctx.actor}. Nothing was changed.`, {
    suggestions: [
      `add_comment {id: "${id}", body: "..."} to ask ${row.claimedBy} to release it`,
      `Wait until ${row.claimExpiresAt}, when the lease lapses if not renewed`,
      'cairn token create --name NAME --scope admin',
    ],
    details: { holder: row.claimedBy, expiresAt: row.claimExpiresAt, requiredScope: 'admin' },
  });
}
