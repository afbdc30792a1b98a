// A concurrent invariant check in the style of Jepsen (issue 31): many clients run random mixes of
// the writes that race (completing blockers, claim_next, creates in one lane, adding and removing
// edges, updates with expectedVersion, retries under one idempotency key), then a checker reads the
// database and verifies what must hold whatever the interleaving. Used by test/core/invariants.test.ts
// (a short run on each engine, in-process and through two `cairn serve` replicas) and by the
// benchmark's `invariants` section (a long one). Clients and the SQL reader are passed in, so this
// file depends on neither the source nor the build.

/** Errors a client may meet in a correct run: the race was lost, and the answer says so. */
const EXPECTED = new Set([
  'VERSION_CONFLICT',
  'CYCLE_DETECTED',
  'SELF_DEPENDENCY',
  'VALIDATION_ERROR',
  'TASK_DELETED',
  'TASK_NOT_FOUND',
  'ALREADY_CLAIMED',
  'NOT_CLAIMED',
  'BLOCKED',
  // Claims exclude: another agent's live claim refuses a write, and a holder whose lease another claimed is fenced out.
  'CLAIMED_BY_OTHER',
  'LEASE_LOST',
]);

/** A small seeded generator (mulberry32): a failing run can be replayed from its seed. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs the mix. `clients[i](op, args, key?)` calls an op as client i (a key: an idempotency key);
 * it throws errors with a `code`. Returns what the checker needs: acknowledged creates, comments and
 * claims, the errors met, and the operation count.
 */
export async function runWorkload({ clients, project, steps, seed = 1 }) {
  const known = []; // task ids any client has seen created
  const acked = { creates: new Map(), comments: new Map(), claims: [] };
  const errors = new Map();
  const unexpected = [];
  let ops = 0;
  const started = performance.now();
  const pick = (r) => known[Math.floor(r() * known.length)];
  const note = (err, what, op) => {
    const code = err?.code ?? 'THROWN';
    errors.set(code, (errors.get(code) ?? 0) + 1);
    // claim_next answers "claimed X" or "nothing ready", whatever others did to its candidates meanwhile.
    if (!EXPECTED.has(code) || op === 'claim_next') unexpected.push(`${what}${op ? ` (${op})` : ''}: ${code}: ${err?.message ?? err}`);
  };
  await Promise.all(
    clients.map(async (call, ci) => {
      const r = rng(seed * 1000 + ci);
      for (let n = 0; n < steps; n++) {
        const roll = r();
        let op;
        ops++;
        try {
          if (roll < 0.3 || known.length < 4) {
            const title = `c${ci}-${n}`;
            const blockedBy = known.length && r() < 0.5 ? [...new Set([pick(r), pick(r)])] : [];
            const key = `k-${seed}-${ci}-${n}`;
            const args = { project, title, blockedBy };
            const first = await call('create_task', args, key);
            // A retry of the same write (a lost answer): one task, the same one.
            if (r() < 0.3) {
              ops++;
              const again = await call('create_task', args, key);
              if (again.task.id !== first.task.id) unexpected.push(`retry of ${title} under ${key} made ${again.task.id}, not ${first.task.id}`);
            }
            acked.creates.set(title, first.task.id);
            known.push(first.task.id);
          } else if (roll < 0.45) {
            await call('complete_task', { id: pick(r) });
          } else if (roll < 0.6) {
            op = 'claim_next';
            const out = await call(op, { project });
            if (out.task) acked.claims.push(out.task.id);
          } else if (roll < 0.7) {
            await call('add_dependency', { taskId: pick(r), blockedBy: pick(r) });
          } else if (roll < 0.77) {
            const t = (await call('get_task', { id: pick(r) })).task;
            if (t.blockedBy.length) await call('remove_dependency', { taskId: t.id, blockedBy: t.blockedBy[Math.floor(r() * t.blockedBy.length)] });
          } else if (roll < 0.9) {
            const t = (await call('get_task', { id: pick(r) })).task;
            await call('update_task', { id: t.id, title: `${t.title}'`, expectedVersion: t.version });
          } else {
            const id = pick(r);
            const body = `note c${ci}-${n}`;
            await call('add_comment', { id, body });
            acked.comments.set(body, id);
          }
        } catch (err) {
          note(err, `client ${ci} step ${n}`, op);
        }
      }
    }),
  );
  return { acked, errors: Object.fromEntries(errors), unexpected, ops, ms: performance.now() - started };
}

/**
 * Reads the database (`query(sql)` answers rows, any engine) and lists every invariant that does not
 * hold; an empty list is a pass.
 */
export async function checkInvariants(query, run) {
  const broken = [];
  const stale = await query(`SELECT t.uid, t.open_blockers AS stored, (SELECT count(*) FROM dependencies d JOIN tasks b ON b.uid = d.blocker_uid
      WHERE d.task_uid = t.uid AND b.category NOT IN ('done', 'canceled') AND b.deleted_at IS NULL) AS actual
    FROM tasks t WHERE t.deleted_at IS NULL`);
  for (const s of stale) if (Number(s.stored) !== Number(s.actual)) broken.push(`open blockers of ${s.uid}: stored ${s.stored}, recount ${s.actual}`);

  const claims = new Map();
  for (const id of run.acked.claims) claims.set(id, (claims.get(id) ?? 0) + 1);
  for (const [id, n] of claims) if (n > 1) broken.push(`${id} claimed ${n} times by claim_next`);

  const shared = await query(`SELECT project_uid, status, position, count(*) AS n FROM tasks WHERE deleted_at IS NULL GROUP BY project_uid, status, position HAVING count(*) > 1`);
  for (const s of shared) broken.push(`lane ${s.status}: position ${s.position} shared by ${s.n} tasks`);

  const edges = await query(`SELECT task_uid, blocker_uid FROM dependencies`);
  const next = new Map();
  for (const e of edges) (next.get(e.task_uid) ?? next.set(e.task_uid, []).get(e.task_uid)).push(e.blocker_uid);
  const state = new Map();
  for (const start of next.keys()) {
    if (state.has(start)) continue;
    const stack = [[start, 0]];
    state.set(start, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const out = next.get(top[0]) ?? [];
      if (top[1] === out.length) {
        state.set(top[0], 2);
        stack.pop();
        continue;
      }
      const n = out[top[1]++];
      if (state.get(n) === 1) {
        broken.push(`the graph has a cycle through ${n}`);
        stack.length = 0;
        break;
      }
      if (!state.has(n)) {
        state.set(n, 1);
        stack.push([n, 0]);
      }
    }
  }

  const feed = (await query(`SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM events`))[0];
  if (Number(feed.n) > 0 && (Number(feed.lo) !== 1 || Number(feed.hi) !== Number(feed.n))) broken.push(`the feed has gaps: ${feed.n} events numbered ${feed.lo}..${feed.hi}`);

  const titles = await query(`SELECT t.title, p.key || '-' || t.seq AS id FROM tasks t JOIN projects p ON p.uid = t.project_uid`);
  const byTitle = new Map();
  for (const t of titles) {
    const base = String(t.title).replace(/'+$/, '');
    (byTitle.get(base) ?? byTitle.set(base, []).get(base)).push(t.id);
  }
  for (const [title, id] of run.acked.creates) {
    const found = byTitle.get(title) ?? [];
    if (found.length !== 1 || found[0] !== id) broken.push(`acknowledged create ${title} (${id}) is present as [${found.join(', ')}]`);
  }
  const comments = await query(`SELECT body, count(*) AS n FROM comments GROUP BY body`);
  const counted = new Map(comments.map((c) => [c.body, Number(c.n)]));
  for (const body of run.acked.comments.keys()) if (counted.get(body) !== 1) broken.push(`acknowledged comment "${body}" is present ${counted.get(body) ?? 0} times`);
  return broken;
}

// Claims that exclude (issue 33), replayed from the history (test/multiprocess/coordination.test.ts).
// Writes that start or end a hold are the claim calls; the ones open to every actor are comments,
// dependency edges and a linked source's own changes (they carry `changes.source`). A workflow edit
// that moves tasks between lanes is open to all too but leaves no mark in its event: a workload that
// edits workflows under live claims sees those flagged.
const HOLD_STARTS = new Set(['task.claimed', 'task.claim_renewed']);
const HOLD_ENDS = new Set(['task.released', 'task.completed', 'task.deleted']);
const OPEN_TO_ALL = new Set(['comment.added', 'dependency.added', 'dependency.removed', 'link.write_lost']);
const NOT_TASK_WRITES = new Set(['task.created', 'task.imported', 'task.renumbered', 'task.purged', 'task.claim_expired']);

/**
 * Replays activity events (seq order; each `{seq?, at?, type, actor, task (or taskId), changes}`) and
 * lists every write to a task that its claim should have refused; an empty list is a pass:
 * - a write by an actor other than the live holder (CLAIMED_BY_OTHER), where a claim is live from its
 *   task.claimed / task.claim_renewed until its lease end (`changes.claimExpiresAt.after`, compared with
 *   the event's `at` when both are there) or until it is released, completed or deleted;
 * - a write by an earlier holder whose claim another actor's claim, release or completion replaced,
 *   until it claims again (LEASE_LOST), even once nobody holds the task.
 * A claim by another actor over a live one is a takeover, and a release of another's live claim a
 * forced release: both are the claim calls' own business (they need a steering principal), not writes.
 */
export function nonHolderWrites(events) {
  const tasks = new Map(); // task -> { holder, expiresAt, open: actors whose latest own hold event is a claim }
  const out = [];
  const stateOf = (task) => tasks.get(task) ?? tasks.set(task, { holder: null, expiresAt: null, open: new Set() }).get(task);
  for (const e of events) {
    const task = e.task ?? e.taskId;
    if (!task || NOT_TASK_WRITES.has(e.type)) continue;
    const s = stateOf(task);
    const changes = e.changes ?? {};
    const live = s.holder !== null && !(s.expiresAt && e.at && Date.parse(e.at) >= Date.parse(s.expiresAt));
    if (HOLD_STARTS.has(e.type)) {
      s.holder = e.actor;
      s.expiresAt = changes.claimExpiresAt?.after ?? (e.type === 'task.claim_renewed' ? s.expiresAt : null);
      s.open.add(e.actor);
      continue;
    }
    const open = OPEN_TO_ALL.has(e.type) || 'source' in changes;
    const forcedRelease = e.type === 'task.released' && live && s.holder !== e.actor;
    if (!open && !forcedRelease && s.holder !== e.actor) {
      const what = `#${e.seq ?? '?'} ${e.type} of ${task} by ${e.actor}${e.at ? ` at ${e.at}` : ''} (${Object.keys(changes).join(', ') || 'no changes'})`;
      if (live) out.push(`${what} while ${s.holder} held it${s.expiresAt ? ` until ${s.expiresAt}` : ''}`);
      else if (s.open.has(e.actor))
        out.push(`${what} after its claim was replaced (${s.holder ? `${s.holder} claimed it since` : 'the task was released or completed since'}) and before it claimed again`);
    }
    if (HOLD_ENDS.has(e.type)) {
      s.holder = null;
      s.expiresAt = null;
      // The actor who ended the hold let go; everyone else who held it and never let go was replaced.
      s.open.delete(e.actor);
    }
  }
  return out;
}
