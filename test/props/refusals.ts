/**
 * Which refusals a random operation may legitimately meet, judged from a raw read of the database
 * taken just before it. Property tests run sequences where many operations are meant to be refused
 * (a purged task, a cycle, a claim held by someone else…); a refusal is accepted only when its code
 * is one the state before the operation explains, so a valid operation that starts being refused
 * fails the property instead of being swallowed with the rest.
 */
import type { RawDb } from '../helpers/raw-db.js';

interface Row {
  uid: string;
  id: string;
  category: string;
  archived_at: string | null;
  deleted_at: string | null;
  claimed_by: string | null;
  claim_expires_at: string | null;
  claim_generation: number;
  parent_uid: string | null;
}

/** Events that start or end an actor's hold on a task (core/services/claim-guard.ts). */
const HOLD_EVENTS = ['task.claimed', 'task.claim_renewed', 'task.released', 'task.completed', 'task.deleted'];

export class RawState {
  readonly #byId = new Map<string, Row>();
  readonly #byUid = new Map<string, Row>();
  /** task uid → the uids of its blockers. */
  readonly #blockers = new Map<string, string[]>();
  /** `task uid actor` → whether that actor's latest hold event on the task is a claim (it never let go). */
  readonly #stillHolds = new Map<string, boolean>();
  readonly #now: string;

  /** A read of `db` taken now; `now`: the ISO time the operation runs at (claims expiring at or before it have lapsed). */
  static async read(db: RawDb, now: string): Promise<RawState> {
    const rows = await db.all<Row>(
      "SELECT t.uid, p.key || '-' || t.seq AS id, t.category, t.archived_at, t.deleted_at, t.claimed_by, t.claim_expires_at, t.claim_generation, t.parent_uid FROM tasks t JOIN projects p ON p.uid = t.project_uid",
    );
    const deps = await db.all<{ task_uid: string; blocker_uid: string }>('SELECT task_uid, blocker_uid FROM dependencies');
    const holds = await db.all<{ task_uid: string; actor: string; type: string }>(
      `SELECT task_uid, actor, type FROM events WHERE task_uid IS NOT NULL AND type IN (${HOLD_EVENTS.map((t) => `'${t}'`).join(', ')}) ORDER BY seq`,
    );
    return new RawState(rows, deps, holds, now);
  }

  private constructor(rows: Row[], deps: Array<{ task_uid: string; blocker_uid: string }>, holds: Array<{ task_uid: string; actor: string; type: string }>, now: string) {
    this.#now = now;
    for (const h of holds) this.#stillHolds.set(`${h.task_uid} ${h.actor}`, h.type === 'task.claimed' || h.type === 'task.claim_renewed');
    for (const r of rows) {
      this.#byId.set(r.id, r);
      this.#byUid.set(r.uid, r);
    }
    for (const d of deps) {
      this.#blockers.set(d.task_uid, [...(this.#blockers.get(d.task_uid) ?? []), d.blocker_uid]);
    }
  }

  /** TASK_NOT_FOUND when one of the tasks named does not exist, TASK_DELETED when one is deleted. */
  missingOrDeleted(...ids: string[]): string[] {
    const codes: string[] = [];
    if (ids.some((id) => !this.#byId.has(id))) codes.push('TASK_NOT_FOUND');
    if (ids.some((id) => this.#byId.get(id)?.deleted_at)) codes.push('TASK_DELETED');
    return codes;
  }

  deleted(id: string): boolean {
    return !!this.#byId.get(id)?.deleted_at;
  }

  /** Archived, or in a done/canceled category: a claim is refused (VALIDATION_ERROR). */
  unclaimable(id: string): boolean {
    const t = this.#byId.get(id);
    return !!t && (t.archived_at !== null || t.category === 'done' || t.category === 'canceled');
  }

  /** Whether someone other than `actor` holds a claim on the task that has not lapsed (the instant it lapses counts both ways). */
  claimedByOther(id: string, actor: string): boolean {
    const t = this.#byId.get(id);
    return !!t?.claimed_by && t.claimed_by !== actor && (t.claim_expires_at === null || t.claim_expires_at >= this.#now);
  }

  /**
   * What a write by `actor` to a task another holds may meet (claims exclude): CLAIMED_BY_OTHER
   * while another's lease runs, LEASE_LOST when `actor` claimed it and someone else's claim or
   * completion replaced that since. Comments, edges and claims themselves are not such writes.
   */
  claimRefusals(id: string, actor: string): string[] {
    const t = this.#byId.get(id);
    if (!t || t.claimed_by === actor) return [];
    const lost = !!this.#stillHolds.get(`${t.uid} ${actor}`) && (t.claimed_by !== null || Number(t.claim_generation) > 0);
    return [...(this.claimedByOther(id, actor) ? ['CLAIMED_BY_OTHER'] : []), ...(lost ? ['LEASE_LOST'] : [])];
  }

  /** Whether the task has no claim that is still running (none, or one lapsed; the instant it lapses counts both ways). */
  unclaimed(id: string): boolean {
    const t = this.#byId.get(id);
    return !t?.claimed_by || (t.claim_expires_at !== null && t.claim_expires_at <= this.#now);
  }

  /** Whether the task waits on a blocker that is still open (not deleted, not done or canceled): a new claim is refused (BLOCKED). */
  hasOpenBlocker(id: string): boolean {
    const t = this.#byId.get(id);
    return (
      !!t &&
      (this.#blockers.get(t.uid) ?? []).some((uid) => {
        const b = this.#byUid.get(uid);
        return !!b && b.deleted_at === null && b.category !== 'done' && b.category !== 'canceled';
      })
    );
  }

  /** Whether `task` is blocked by `blocker` (an edge exists). */
  hasEdge(task: string, blocker: string): boolean {
    const [t, b] = [this.#byId.get(task), this.#byId.get(blocker)];
    return !!t && !!b && (this.#blockers.get(t.uid) ?? []).includes(b.uid);
  }

  /** Whether making `task` wait on `blocker` closes a loop: `blocker` already waits on `task`, through any chain of edges. */
  depCycle(task: string, blocker: string): boolean {
    const [t, b] = [this.#byId.get(task), this.#byId.get(blocker)];
    if (!t || !b) return false;
    const seen = new Set<string>();
    const stack = [b.uid];
    while (stack.length) {
      const uid = stack.pop()!;
      if (uid === t.uid) return true;
      if (seen.has(uid)) continue;
      seen.add(uid);
      stack.push(...(this.#blockers.get(uid) ?? []));
    }
    return false;
  }

  /** Whether making `parent` the parent of `task` closes a loop: `task` is `parent` or one of its ancestors. */
  parentCycle(task: string, parent: string): boolean {
    const t = this.#byId.get(task);
    for (let p = this.#byId.get(parent), hops = 0; p && hops <= this.#byUid.size; p = p.parent_uid ? this.#byUid.get(p.parent_uid) : undefined, hops++) {
      if (p.uid === t?.uid) return true;
    }
    return false;
  }
}

/**
 * Runs `attempt`; a refusal whose code is not among `allowed` (or that is no CairnError at all)
 * fails the test, naming the operation. Returns whether the operation was refused, and its answer.
 */
export async function refusedOnlyAsAllowed<T>(what: string, allowed: readonly string[], attempt: () => Promise<T>): Promise<{ refused: boolean; answer: T | undefined }> {
  try {
    return { refused: false, answer: await attempt() };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !allowed.includes(code)) {
      throw new Error(`${what} was refused with ${String(code)} (allowed here: ${allowed.join(', ') || 'none'}): ${(e as Error).message}`, { cause: e });
    }
    return { refused: true, answer: undefined };
  }
}
