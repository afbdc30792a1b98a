/**
 * The Tx port on PostgreSQL: the shared queries, plus what one writer at a time gave SQLite for
 * free. Several transactions write at once here (READ COMMITTED), so:
 * - a write transaction's read of a task locks its row until commit (FOR UPDATE): the version,
 *   claim and state checks that follow hold until the write they guard;
 * - `exclusive` serialises the writers of a whole graph or registry (cycle checks, keys, aliases)
 *   with a transaction-scoped advisory lock;
 * - events are numbered under the feed counter's row lock, so they commit in the order of their numbers and a
 *   reader that has seen number N has seen every event before it (docs/architecture.md).
 */
import { sql, type Kysely } from 'kysely';
import type { Tx } from '../../core/ports.js';
import type { DB } from '../schema.js';
import { KyselyTx, type SearchEngine } from '../queries/kysely-tx.js';
import { base } from '../queries/tasks.js';
import { prepared } from '../queries/prepared.js';
import { toProjectRow, toTaskRow, type TaskRecord } from '../queries/rows.js';
import { ProjectCache } from '../queries/project-cache.js';
import type { Category } from '../../core/model/workflow.js';
import type { ChecklistItem, Comment, CommentKind } from '../../core/model/task.js';
import type { CountCache } from '../queries/task-list.js';
import type { SummaryCache } from '../queries/summary-cache.js';

/** Advisory lock numbers within a schema's key space (the other key is the schema's hash). */
// 1 stays unused: replicas from before the feed counter (migration 3) take it as the feed's lock.
const LOCKS = { migrate: 0, graph: 2, projects: 3, tokens: 4, reservations: 5 } as const;
export type LockName = keyof typeof LOCKS;

export const lockSql = (name: LockName) => sql`SELECT pg_advisory_xact_lock(hashtext(current_schema()), ${sql.lit(LOCKS[name])})`;

const lockedByUid = prepared((db, p) => base(db).where('tasks.uid', '=', p(0)).forUpdate('tasks'));
const lockedBySeq = prepared((db, p) => base(db).where('tasks.project_uid', '=', p(0)).where('tasks.seq', '=', p(1)).forUpdate('tasks'));
// A project with its workflow in one read: a write that names a project (create, a move) usually needs both.
const projectWithStatuses = prepared((db, p) =>
  db
    .selectFrom('projects as p')
    .selectAll('p')
    .select(
      sql<string>`(SELECT coalesce(json_agg(json_build_array(s.name, s.display_name, s.color, s.category, s.position) ORDER BY s.position), '[]')::text
    FROM statuses s WHERE s.project_uid = p.uid)`.as('statuses_json'),
    )
    .where('p.key', '=', p(0)),
);
// A read that resolves a task by display id usually shows it: its checklist and comments come in the same statement.
const detailedByKey = prepared((db, p) =>
  base(db)
    .select(sql<string>`(SELECT coalesce(json_agg(json_build_array(c.idx, c.text, c.checked) ORDER BY c.idx), '[]')::text FROM checklist_items c WHERE c.task_uid = tasks.uid)`.as('checklist_json'))
    .select(
      sql<string>`(SELECT coalesce(json_agg(json_build_array(m.id, m.author, m.kind, m.body, m.created_at) ORDER BY m.created_at, m.id), '[]')::text FROM comments m WHERE m.task_uid = tasks.uid)`.as(
        'comments_json',
      ),
    )
    .where('p.key', '=', p(0))
    .where('tasks.seq', '=', p(1)),
);
const lockedByKey = prepared((db, p) => base(db).where('p.key', '=', p(0)).where('tasks.seq', '=', p(1)).forUpdate('tasks'));
// A lane's writers, one at a time: a place at the end (max + 1) or between two neighbours is read and
// written under this lock, so two creates in one lane never take one position. One bigint key (its
// own key space beside the two-int locks above): the schema, project and status hashed together.
const laneLock = prepared((_db, p) => sql`SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ' ' || ${p(0)} || ' ' || ${p(1)}, 0))`);
// The rows whose open_blockers a write recounts, locked in uid order (writers meeting on the same rows wait, never deadlock).
const lockForRecount = prepared((db, p) => sql`SELECT uid, open_blockers FROM tasks WHERE uid IN (SELECT value FROM json_array_elements_text(${p(0)}::json)) ORDER BY uid FOR UPDATE`);

/**
 * An event numbered by the feed counter (cairn_feed.last_seq). The UPDATE locks the counter's row
 * until commit, and a writer that waited for it reads the number the last one committed, so events
 * commit in the order of their numbers with none skipped. `greatest` covers events written with
 * their own numbers (an import, a copy), which do not move the counter. The first event of a
 * transaction also sends the wake-up for every replica's live views (delivered at commit, and only then).
 */
const appendSql = (notify: boolean) =>
  prepared(
    (_db, p) => sql<{ seq: number }>`WITH n AS (
    UPDATE cairn_feed SET last_seq = greatest(last_seq, (SELECT coalesce(max(seq), 0) FROM events)) + 1 WHERE id = 1 RETURNING last_seq
  )${notify ? sql`, w AS (SELECT pg_notify(${p(7)}, ''))` : sql``}
  INSERT INTO events (seq, at, actor, project_uid, task_uid, type, changes, via)
  SELECT n.last_seq, ${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)} FROM n${notify ? sql`, w` : sql``} RETURNING seq`,
  );
const appendFirst = appendSql(true);
// A range of numbers at once (an import's events, numbered at its end), under the same row lock and with the same wake-up.
const reserveSql = prepared(
  (_db, p) => sql<{ last: number }>`WITH n AS (
    UPDATE cairn_feed SET last_seq = greatest(last_seq, (SELECT coalesce(max(seq), 0) FROM events)) + ${p(0)}::int WHERE id = 1 RETURNING last_seq
  ), w AS (SELECT pg_notify(${p(1)}, ''))
  SELECT n.last_seq AS last FROM n, w`,
);
const appendNext = appendSql(false);

export class PostgresTx extends KyselyTx {
  #held = new Set<LockName>();
  #notified = false;

  constructor(
    private readonly pg: Kysely<DB>,
    engine: SearchEngine,
    private readonly writing: boolean,
    private readonly channel: string,
    counts?: CountCache,
    summaries?: SummaryCache,
  ) {
    // Projects and workflows are remembered for this transaction only: another replica may change them at any time.
    const projects = new ProjectCache();
    super(pg, engine, counts, summaries, projects);
    if (!writing) {
      // Nothing changes under a read (one snapshot), so what the first statement brought stays true.
      const details = new Map<string, { checklist: ChecklistItem[]; comments: Comment[] }>();
      this.getTaskByKey = async (projectKey, seq) => {
        const [r] = await detailedByKey.all(this.pg, [projectKey, seq]);
        if (!r) return undefined;
        const { checklist_json, comments_json, ...task } = r;
        details.set(task.uid, {
          checklist: (JSON.parse(checklist_json) as Array<[number, string, number]>).map(([index, text, checked]) => ({ index, text, checked: checked === 1 })),
          comments: (JSON.parse(comments_json) as Array<[string, string, CommentKind, string, string]>).map(([id, author, kind, body, createdAt]) => ({ id, author, kind, body, createdAt })),
        });
        return toTaskRow(task as TaskRecord);
      };
      const checklistOf = this.getChecklist;
      const commentsOf = this.getComments;
      this.getChecklist = async (uid) => details.get(uid)?.checklist ?? checklistOf(uid);
      this.getComments = async (uid) => details.get(uid)?.comments ?? commentsOf(uid);
    }
    if (writing) {
      const generation = projects.generation;
      const byKey = this.getProjectByKey;
      this.getProjectByKey = async (key) => {
        // Once this transaction changes a project, the shared path reads afresh (ProjectCache is cleared).
        if (projects.generation !== generation) return byKey(key);
        const known = projects.project('key', key);
        if (known) return known;
        const [r] = await projectWithStatuses.all(this.pg, [key]);
        if (!r || projects.generation !== generation) return r && toProjectRow(r);
        const { statuses_json, ...row } = r;
        const project = projects.rememberProject(toProjectRow(row));
        const statuses = (JSON.parse(statuses_json) as Array<[string, string, string, Category, number]>).map(([name, displayName, color, category, position]) => ({
          name,
          displayName,
          color,
          category,
          position,
        }));
        projects.rememberStatuses(project.uid, statuses);
        return project;
      };
      // Two writers finishing two blockers of one task: the second one's recount, as one UPDATE, would
      // wait for the first's row lock and then count with the snapshot it took before that commit,
      // leaving a done blocker counted. Locking first makes the recount a statement of its own, whose
      // snapshot is taken once the lock is held: it sees every blocker change committed before it.
      const recount = this.refreshOpenBlockers;
      this.refreshOpenBlockers = async (uids) => {
        if (uids.length === 0) return;
        await lockForRecount.all(this.pg, [JSON.stringify(uids)]);
        await recount(uids);
      };
      const lanes = new Set<string>();
      const lockLane = async (projectUid: string, status: string) => {
        const key = `${projectUid} ${status}`;
        if (lanes.has(key)) return;
        await laneLock.all(this.pg, [projectUid, status]);
        lanes.add(key);
      };
      const lastPosition = this.maxLanePosition;
      const positions = this.lanePositions;
      this.maxLanePosition = async (projectUid, status) => {
        await lockLane(projectUid, status);
        return lastPosition(projectUid, status);
      };
      this.lanePositions = async (projectUid, status, excludeUid) => {
        await lockLane(projectUid, status);
        return positions(projectUid, status, excludeUid);
      };
      this.getTask = async (uid) => {
        const [r] = await lockedByUid.all(this.pg, [uid]);
        return r && toTaskRow(r as TaskRecord);
      };
      this.getTaskBySeq = async (projectUid, seq) => {
        const [r] = await lockedBySeq.all(this.pg, [projectUid, seq]);
        return r && toTaskRow(r as TaskRecord);
      };
      this.getTaskByKey = async (projectKey, seq) => {
        const [r] = await lockedByKey.all(this.pg, [projectKey, seq]);
        return r && toTaskRow(r as TaskRecord);
      };
    }
    this.appendEvent = async (e) => {
      const values = [e.at, e.actor, e.projectUid, e.taskUid, e.type, JSON.stringify(e.changes), e.via ?? null];
      const [r] = this.#notified ? await appendNext.all(this.pg, values) : await appendFirst.all(this.pg, [...values, this.channel]);
      this.#notified = true;
      return r!.seq;
    };
  }

  override get transfer(): Tx['transfer'] {
    const transfer = super.transfer;
    transfer.reserveEventSeqs = async (count) => {
      const [r] = await reserveSql.all(this.pg, [count, this.channel]);
      this.#notified = true;
      return Number(r!.last) - count + 1;
    };
    return transfer;
  }

  override exclusive: Tx['exclusive'] = async (resource) => {
    if (!this.writing || this.#held.has(resource)) return;
    await lockSql(resource).execute(this.pg);
    this.#held.add(resource);
  };
}
