// Builds a benchmark workspace of N tasks straight into SQLite (bulk insert in one transaction), then derives
// what the write path normally maintains: open-blocker counts and the search index. Run as a child process:
//   node bench/lib/build-workspace.js <size> <file>   → prints {"ms":…, "counts":{…}} on stdout
import { ulid } from 'ulid';
import { openSqliteFile } from '../../dist/store/sqlite/open.js';
import { RELATIONS_BACKFILL_SQL } from '../../dist/store/migrations/sqlite.js';
import { templateStatuses } from '../../dist/core/model/workflow.js';
import { SEARCH_INSERT_SQL, SEARCH_ROW_SQL } from '../../dist/store/sqlite/search.js';
import { rng } from './random.js';
import { ACTORS, CHECKLIST, COMMENT_OPENERS, LABELS, NOUNS, PLACES, PROJECTS, VERBS, VOCABULARY } from './words.js';

const CATEGORY_MIX = [
  ['backlog', 5],
  ['todo', 45],
  ['in_progress', 10],
  ['review', 3],
  ['blocked', 2],
  ['done', 30],
  ['canceled', 5],
];
const KINDS = [
  ['task', 50],
  ['feature', 20],
  ['bug', 20],
  ['chore', 7],
  ['spike', 3],
];
const DAY = 86_400_000;

function sentence(r) {
  const words = Array.from({ length: r.int(6, 16) }, () => r.zipf(VOCABULARY));
  return words.join(' ').replace(/^./, (c) => c.toUpperCase()) + '.';
}

function build(size, file) {
  const r = rng(size * 7919 + 17);
  const db = openSqliteFile(file);
  const start = Date.now() - 200 * DAY;
  const span = 190 * DAY;
  const now = new Date().toISOString();
  const statuses = templateStatuses('default');
  const catOf = new Map(statuses.map((s) => [s.name, s.category]));
  const ins = {
    project: db.prepare('INSERT INTO projects (uid, key, name, description, aliases, next_seq, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    status: db.prepare('INSERT INTO statuses (project_uid, name, display_name, color, category, position) VALUES (?, ?, ?, ?, ?, ?)'),
    task: db.prepare(`INSERT INTO tasks (uid, project_uid, seq, title, description, status, category, kind, priority, score, position,
      assignee, claimed_by, claim_expires_at, parent_uid, links, anchors, checklist_done, checklist_total, version,
      created_at, updated_at, completed_at, archived_at, deleted_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    label: db.prepare('INSERT INTO task_labels (task_uid, label) VALUES (?, ?)'),
    dep: db.prepare('INSERT OR IGNORE INTO dependencies (task_uid, blocker_uid, created_at) VALUES (?, ?, ?)'),
    item: db.prepare('INSERT INTO checklist_items (task_uid, idx, text, checked) VALUES (?, ?, ?, ?)'),
    comment: db.prepare('INSERT INTO comments (id, task_uid, author, kind, body, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
    event: db.prepare("INSERT INTO events (at, actor, project_uid, task_uid, type, changes) VALUES (?, ?, ?, ?, 'task.created', ?)"),
  };
  // Secondary indexes are dropped for the load and rebuilt from their own SQL afterwards: one
  // sorted build per index instead of a random insert per row.
  const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all();
  for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);
  // The triggers that keep task rows' relation columns would probe the dropped indexes per row:
  // they go too, and the columns are derived once after the load.
  const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%\\_rel\\_%' ESCAPE '\\'").all();
  for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);
  const counts = { tasks: size, projects: PROJECTS.length, withBlockers: 0, edges: 0, labels: 0, checklistItems: 0, comments: 0 };
  db.exec('BEGIN');
  const projects = PROJECTS.map((p) => ({ ...p, uid: ulid(start), seq: 0, tasks: [], epics: [], lanes: new Map() }));
  for (const p of projects) {
    ins.project.run(p.uid, p.key, p.name, `${p.name} work`, '[]', 1, new Date(start).toISOString(), now);
    for (const s of statuses) ins.status.run(p.uid, s.name, s.displayName, s.color, s.category, s.position);
  }
  for (let i = 0; i < size; i++) {
    const p = projects[Math.min(projects.length - 1, Math.floor(projects.length * r.next() ** 1.3))];
    const created = start + Math.floor((i / size) * span);
    const createdAt = new Date(created).toISOString();
    const uid = ulid(created);
    const status = r.weighted(CATEGORY_MIX);
    const category = catOf.get(status);
    const seq = ++p.seq;
    const lane = (p.lanes.get(status) ?? 0) + 1;
    p.lanes.set(status, lane);
    const kind = r.chance(0.03) ? 'epic' : r.weighted(KINDS);
    const title = `${r.pick(VERBS)} ${r.pick(NOUNS)} ${r.pick(PLACES)}`.trim();
    const description = Array.from({ length: r.int(1, 5) }, () => sentence(r)).join(' ');
    const assigned = category === 'in_progress' || r.chance(0.3) ? r.pick(ACTORS) : null;
    // In-progress work is claimed; 3% of those leases have lapsed (abandoned work, ready again until
    // someone takes it). Live leases end weeks ahead so a cached workspace stays the same as it ages.
    const claimed = category === 'in_progress' && status === 'in_progress' ? assigned : null;
    const lapsed = r.chance(0.03);
    const expires = claimed ? new Date(Date.now() + (lapsed ? -r.int(60, 72 * 3600) : r.int(7, 30) * 86_400) * 1000).toISOString() : null;
    const parent = kind !== 'epic' && p.epics.length && r.chance(0.15) ? r.pick(p.epics) : null;
    const done = category === 'done' ? new Date(created + r.int(1, 20) * DAY).toISOString() : null;
    const archived = done && r.chance(0.1) ? done : null;
    const deleted = r.chance(0.01) ? now : null;
    const items = r.chance(0.4) ? r.int(2, 6) : 0;
    const checked = category === 'done' ? items : r.int(0, items);
    const links = r.chance(0.2) ? JSON.stringify({ branch: `feat/${p.key.toLowerCase()}-${seq}` }) : '{}';
    ins.task.run(
      uid,
      p.uid,
      seq,
      title,
      description,
      status,
      category,
      kind,
      r.int(0, 4),
      r.chance(0.2) ? r.int(1, 100) : 0,
      lane,
      assigned,
      claimed,
      expires,
      parent,
      links,
      '[]',
      checked,
      items,
      1,
      createdAt,
      createdAt,
      done,
      archived,
      deleted,
    );
    for (const label of new Set(
      Array.from(
        {
          length: r.weighted([
            [0, 15],
            [1, 40],
            [2, 30],
            [3, 15],
          ]),
        },
        () => r.zipf(LABELS),
      ),
    )) {
      ins.label.run(uid, label);
      counts.labels++;
    }
    // Blockers are earlier tasks (mostly of the same project), so the graph is acyclic by construction.
    if (p.tasks.length > 3 && r.chance(0.3)) {
      counts.withBlockers++;
      for (let k = r.int(1, 3); k > 0; k--) {
        const pool = r.chance(0.85) ? p.tasks : projects[0].tasks;
        const recent = Math.max(0, pool.length - 2000);
        const b = pool[r.int(recent, pool.length - 1)];
        if (b && b !== uid) counts.edges += ins.dep.run(uid, b, createdAt).changes;
      }
    }
    for (let k = 0; k < items; k++) ins.item.run(uid, k, r.pick(CHECKLIST), k < checked ? 1 : 0);
    counts.checklistItems += items;
    if (r.chance(0.3)) {
      for (let k = r.int(1, 3); k > 0; k--) {
        ins.comment.run(
          ulid(created + k * 1000),
          uid,
          r.pick(ACTORS),
          r.pick(['comment', 'research', 'implementation']),
          `${r.pick(COMMENT_OPENERS)} ${sentence(r)}`,
          new Date(created + k * 1000).toISOString(),
        );
        counts.comments++;
      }
    }
    ins.event.run(createdAt, r.pick(ACTORS), p.uid, uid, JSON.stringify({ title: { before: null, after: title } }));
    p.tasks.push(uid);
    if (kind === 'epic') p.epics.push(uid);
  }
  for (const p of projects) db.prepare('UPDATE projects SET next_seq = ? WHERE uid = ?').run(p.seq + 1, p.uid);
  for (const i of indexes) db.exec(i.sql);
  db.exec(RELATIONS_BACKFILL_SQL);
  for (const t of triggers) db.exec(t.sql);
  // What commitTaskChange keeps current on every write, derived once here for the whole set.
  db.exec(`UPDATE tasks SET (open_blockers, rel_open_blocked_by) = (
      SELECT count(*), json_group_array(bp.key || '-' || b.seq ORDER BY d.created_at, b.num)
      FROM dependencies d JOIN tasks b ON b.uid = d.blocker_uid JOIN projects bp ON bp.uid = b.project_uid
      WHERE d.task_uid = tasks.uid AND b.category NOT IN ('done', 'canceled') AND b.deleted_at IS NULL)
    WHERE uid IN (SELECT task_uid FROM dependencies)`);
  db.exec(`${SEARCH_INSERT_SQL} ${SEARCH_ROW_SQL}`);
  db.exec('COMMIT');
  // No ANALYZE and no FTS 'optimize': the index is left as the bulk load leaves it (~36 segments at 100k),
  // and the core bench measures search both so and after the merging a quiet server does (search-upkeep.ts).
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return counts;
}

const [size, file] = [Number(process.argv[2]), process.argv[3]];
if (!size || !file) {
  console.error('usage: build-workspace.js <size> <file>');
  process.exit(1);
}
const t0 = Date.now();
const counts = build(size, file);
process.stdout.write(JSON.stringify({ ms: Date.now() - t0, counts }) + '\n');
