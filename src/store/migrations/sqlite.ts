/** SQLite schema history: forward-only migrations, each applied once in order (PRAGMA user_version). */
import { gramsSqlite } from '../queries/substring.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The stored relation columns as SQL over the edge tables, for task uid expression `uid`: JSON
 * arrays in the order answers list them (labels by name, edges by creation, children by number).
 */
const rel = {
  labels: (uid: string) => `(SELECT json_group_array(label ORDER BY label) FROM task_labels WHERE task_uid = ${uid})`,
  // A deleted blocker leaves blockedBy (as a deleted task leaves blocks and children); restoring it brings it back.
  blockedBy: (uid: string) =>
    `(SELECT json_group_array(p.key || '-' || b.seq ORDER BY d.created_at, b.num) FROM dependencies d JOIN tasks b ON b.uid = d.blocker_uid JOIN projects p ON p.uid = b.project_uid WHERE d.task_uid = ${uid} AND b.deleted_at IS NULL)`,
  openBlockedBy: (uid: string) =>
    `(SELECT json_group_array(p.key || '-' || b.seq ORDER BY d.created_at, b.num) FROM dependencies d JOIN tasks b ON b.uid = d.blocker_uid JOIN projects p ON p.uid = b.project_uid WHERE d.task_uid = ${uid} AND b.category NOT IN ('done', 'canceled') AND b.deleted_at IS NULL)`,
  blocks: (uid: string) =>
    `(SELECT json_group_array(p.key || '-' || t.seq ORDER BY d.created_at, t.num) FROM dependencies d JOIN tasks t ON t.uid = d.task_uid JOIN projects p ON p.uid = t.project_uid WHERE d.blocker_uid = ${uid} AND t.deleted_at IS NULL)`,
  children: (uid: string) =>
    `(SELECT json_group_array(p.key || '-' || c.seq ORDER BY c.seq, c.num) FROM tasks c JOIN projects p ON p.uid = c.project_uid WHERE c.parent_uid = ${uid} AND c.deleted_at IS NULL)`,
  displayId: (uid: string) => `(SELECT p.key || '-' || t.seq FROM tasks t JOIN projects p ON p.uid = t.project_uid WHERE t.uid = ${uid})`,
};

/** Recomputes every task's stored relation columns from the edge tables (migration 6, bulk loads). */
export const RELATIONS_BACKFILL_SQL = `
UPDATE tasks SET rel_labels = ${rel.labels('tasks.uid')} WHERE uid IN (SELECT task_uid FROM task_labels);
UPDATE tasks SET rel_blocked_by = ${rel.blockedBy('tasks.uid')} WHERE uid IN (SELECT task_uid FROM dependencies);
UPDATE tasks SET rel_blocks = ${rel.blocks('tasks.uid')} WHERE uid IN (SELECT blocker_uid FROM dependencies);
UPDATE tasks SET rel_children = ${rel.children('tasks.uid')} WHERE uid IN (SELECT parent_uid FROM tasks WHERE parent_uid IS NOT NULL);
UPDATE tasks SET parent_id = ${rel.displayId('tasks.parent_uid')} WHERE parent_uid IS NOT NULL;
`;

/** Open work, as tasks_open and label_order hold it: not done or canceled, not archived or deleted. */
const open = (t: string) => `${t}.category NOT IN ('done', 'canceled') AND ${t}.archived_at IS NULL AND ${t}.deleted_at IS NULL`;

/** Removes the label_order entries of task row `t` (OLD) for the labels `labels` selects, found by their full keys. */
const dropLabelOrder = (t: string, labels: string) => `DELETE FROM label_order WHERE project_uid = ${t}.project_uid AND label IN (${labels})
    AND priority = ${t}.priority AND score = ${t}.score AND position = ${t}.position AND created_at = ${t}.created_at AND uid = ${t}.uid;`;

/** The link tables (migration 21 here, 4 on PostgreSQL): `t` is the engine's text type. */
export const LINK_TABLES_SQL = (t: string): string => `
CREATE TABLE links (
  id ${t} PRIMARY KEY,
  kind ${t} NOT NULL,
  path ${t} NOT NULL UNIQUE,
  writable INTEGER NOT NULL,
  state ${t} NOT NULL DEFAULT '{}',
  created_at ${t} NOT NULL
);
CREATE TABLE link_projects (
  project_uid ${t} PRIMARY KEY,
  link_id ${t} NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  ref ${t} NOT NULL
);
CREATE INDEX link_projects_link ON link_projects (link_id);
CREATE TABLE link_items (
  link_id ${t} NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  source_id ${t} NOT NULL,
  task_uid ${t} NOT NULL,
  file ${t},
  hash ${t} NOT NULL,
  PRIMARY KEY (link_id, source_id)
);
CREATE INDEX link_items_task ON link_items (task_uid);
CREATE INDEX link_items_source ON link_items (source_id);
CREATE INDEX link_items_file ON link_items (link_id, file);
CREATE TABLE link_files (
  link_id ${t} NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  file ${t} NOT NULL,
  stamp ${t} NOT NULL,
  PRIMARY KEY (link_id, file)
);
`;

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'core tables',
    sql: `
CREATE TABLE projects (
  uid TEXT PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  root TEXT,
  aliases TEXT NOT NULL DEFAULT '[]',
  next_seq INTEGER NOT NULL DEFAULT 1,
  archived_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE statuses (
  project_uid TEXT NOT NULL REFERENCES projects(uid) ON DELETE CASCADE,
  name TEXT NOT NULL,
  display_name TEXT NOT NULL,
  color TEXT NOT NULL,
  category TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (project_uid, name)
);
CREATE TABLE tasks (
  num INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  project_uid TEXT NOT NULL REFERENCES projects(uid),
  seq INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  category TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'task',
  priority INTEGER NOT NULL DEFAULT 0,
  score REAL NOT NULL DEFAULT 0,
  position REAL NOT NULL DEFAULT 0,
  assignee TEXT,
  claimed_by TEXT,
  claim_expires_at TEXT,
  parent_uid TEXT REFERENCES tasks(uid),
  links TEXT NOT NULL DEFAULT '{}',
  anchors TEXT NOT NULL DEFAULT '[]',
  close_reason TEXT,
  origin TEXT,
  document_path TEXT,
  open_blockers INTEGER NOT NULL DEFAULT 0,
  checklist_done INTEGER NOT NULL DEFAULT 0,
  checklist_total INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT,
  archived_at TEXT,
  deleted_at TEXT,
  UNIQUE (project_uid, seq)
);
CREATE INDEX tasks_lane ON tasks (project_uid, status, position);
CREATE INDEX tasks_order ON tasks (project_uid, priority DESC, score DESC, position, created_at);
CREATE INDEX tasks_ready_all ON tasks (priority DESC, score DESC, position, created_at)
  WHERE category = 'todo' AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_ready_project ON tasks (project_uid, priority DESC, score DESC, position, created_at)
  WHERE category = 'todo' AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_updated ON tasks (updated_at);
CREATE INDEX tasks_parent ON tasks (parent_uid) WHERE parent_uid IS NOT NULL;
CREATE INDEX tasks_assignee ON tasks (assignee) WHERE assignee IS NOT NULL;
CREATE TABLE task_labels (
  task_uid TEXT NOT NULL REFERENCES tasks(uid) ON DELETE CASCADE,
  label TEXT NOT NULL,
  PRIMARY KEY (task_uid, label)
) WITHOUT ROWID;
CREATE INDEX task_labels_label ON task_labels (label, task_uid);
CREATE TABLE dependencies (
  task_uid TEXT NOT NULL REFERENCES tasks(uid) ON DELETE CASCADE,
  blocker_uid TEXT NOT NULL REFERENCES tasks(uid) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (task_uid, blocker_uid)
) WITHOUT ROWID;
CREATE INDEX dependencies_blocker ON dependencies (blocker_uid, task_uid);
CREATE TABLE checklist_items (
  task_uid TEXT NOT NULL REFERENCES tasks(uid) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  text TEXT NOT NULL,
  checked INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (task_uid, idx)
) WITHOUT ROWID;
CREATE TABLE comments (
  id TEXT PRIMARY KEY,
  task_uid TEXT NOT NULL REFERENCES tasks(uid) ON DELETE CASCADE,
  author TEXT NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX comments_task ON comments (task_uid, created_at);
CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  project_uid TEXT,
  task_uid TEXT,
  type TEXT NOT NULL,
  changes TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_task ON events (task_uid, seq) WHERE task_uid IS NOT NULL;
CREATE INDEX events_project ON events (project_uid, seq);
`,
  },
  {
    version: 2,
    name: 'full-text search index',
    // A plain (content-storing) FTS5 table so snippet()/highlight() can build excerpts.
    sql: `
CREATE VIRTUAL TABLE task_search USING fts5(
  title, labels, description, comments, checklist,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
INSERT INTO task_search (rowid, title, labels, description, comments, checklist)
SELECT t.num, t.title,
  COALESCE((SELECT group_concat(label, ' ') FROM task_labels l WHERE l.task_uid = t.uid), ''),
  t.description,
  COALESCE((SELECT group_concat(body, ' ') FROM comments c WHERE c.task_uid = t.uid), ''),
  COALESCE((SELECT group_concat(text, ' ') FROM checklist_items i WHERE i.task_uid = t.uid), '')
FROM tasks t;
`,
  },
  {
    version: 3,
    name: 'api tokens',
    // Only the sha256 of a secret is stored; a live name is unique so `token revoke NAME` is unambiguous.
    sql: `
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  scope TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE UNIQUE INDEX api_tokens_live_name ON api_tokens (name) WHERE revoked_at IS NULL;
`,
  },
  {
    version: 4,
    name: 'indexes for open lists and abandoned claims',
    // Partial indexes are used only when the query repeats their WHERE with literal constants
    // (store/queries/tasks.ts inlines them). Ending the ordered indexes with uid serves the whole
    // ready order (no sort step) and lets label filters probe task_labels without reading rows.
    // tasks_open serves the default list (open tasks in ready order) and counts it from the index
    // alone: it repeats its WHERE columns because SQLite re-checks those terms, which would
    // otherwise read every row. tasks_abandoned* find lapsed claims for the ready queue without
    // scanning in-progress work, and rank them from the index alone.
    sql: `
DROP INDEX IF EXISTS tasks_ready_all;
DROP INDEX IF EXISTS tasks_ready_project;
CREATE INDEX tasks_ready_all ON tasks (priority DESC, score DESC, position, created_at, uid)
  WHERE category = 'todo' AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_ready_project ON tasks (project_uid, priority DESC, score DESC, position, created_at, uid)
  WHERE category = 'todo' AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_open ON tasks (project_uid, priority DESC, score DESC, position, created_at, uid, category, archived_at, deleted_at)
  WHERE category NOT IN ('done', 'canceled') AND archived_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_abandoned ON tasks (claim_expires_at, claimed_by, priority, score, position, created_at, uid, category, open_blockers, archived_at, deleted_at)
  WHERE category = 'in_progress' AND claimed_by IS NOT NULL AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_abandoned_project ON tasks (project_uid, claim_expires_at, claimed_by, priority, score, position, created_at, uid, category, open_blockers, archived_at, deleted_at)
  WHERE category = 'in_progress' AND claimed_by IS NOT NULL AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
`,
  },
  {
    version: 5,
    name: 'search index knows hidden tasks',
    // A sixth FTS column holds "x" for archived or deleted tasks, so the default search
    // ("… NOT hidden : x") ranks and counts from the index alone instead of reading one task row
    // per match. The trigger keeps it current whichever path archives, deletes or restores a task.
    sql: `
DROP TABLE IF EXISTS task_search;
CREATE VIRTUAL TABLE task_search USING fts5(
  title, labels, description, comments, checklist, hidden,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
INSERT INTO task_search (rowid, title, labels, description, comments, checklist, hidden)
SELECT t.num, t.title,
  COALESCE((SELECT group_concat(label, ' ') FROM task_labels l WHERE l.task_uid = t.uid), ''),
  t.description,
  COALESCE((SELECT group_concat(body, ' ') FROM comments c WHERE c.task_uid = t.uid), ''),
  COALESCE((SELECT group_concat(text, ' ') FROM checklist_items i WHERE i.task_uid = t.uid), ''),
  CASE WHEN t.archived_at IS NULL AND t.deleted_at IS NULL THEN '' ELSE 'x' END
FROM tasks t;
CREATE TRIGGER tasks_search_hidden AFTER UPDATE OF archived_at, deleted_at ON tasks
WHEN (OLD.archived_at IS NULL AND OLD.deleted_at IS NULL) <> (NEW.archived_at IS NULL AND NEW.deleted_at IS NULL)
BEGIN
  UPDATE task_search SET hidden = CASE WHEN NEW.archived_at IS NULL AND NEW.deleted_at IS NULL THEN '' ELSE 'x' END
  WHERE rowid = NEW.num;
END;
`,
  },
  {
    version: 6,
    name: 'relations stored on task rows',
    // Every task answer carries labels, blockedBy, blocks, children and the parent's display id.
    // Reading them with four batched relation queries costs more than the rest of a 50-row list,
    // so each task row keeps them as JSON arrays, and triggers rewrite them whenever an edge, a
    // label, a parent link or a task's deletion changes. Triggers, not service code, so no write
    // path (bulk loads included) can leave them stale; the edge tables stay the source of truth
    // for filters, counts and graph walks. Display ids never change (keys and seqs are fixed).
    sql: `
ALTER TABLE tasks ADD COLUMN parent_id TEXT;
ALTER TABLE tasks ADD COLUMN rel_labels TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN rel_blocked_by TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN rel_blocks TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN rel_children TEXT NOT NULL DEFAULT '[]';
${RELATIONS_BACKFILL_SQL}
CREATE TRIGGER task_labels_rel_insert AFTER INSERT ON task_labels BEGIN
  UPDATE tasks SET rel_labels = ${rel.labels('NEW.task_uid')} WHERE uid = NEW.task_uid;
END;
CREATE TRIGGER task_labels_rel_delete AFTER DELETE ON task_labels BEGIN
  UPDATE tasks SET rel_labels = ${rel.labels('OLD.task_uid')} WHERE uid = OLD.task_uid;
END;
CREATE TRIGGER dependencies_rel_insert AFTER INSERT ON dependencies BEGIN
  UPDATE tasks SET rel_blocked_by = ${rel.blockedBy('NEW.task_uid')} WHERE uid = NEW.task_uid;
  UPDATE tasks SET rel_blocks = ${rel.blocks('NEW.blocker_uid')} WHERE uid = NEW.blocker_uid;
END;
CREATE TRIGGER dependencies_rel_delete AFTER DELETE ON dependencies BEGIN
  UPDATE tasks SET rel_blocked_by = ${rel.blockedBy('OLD.task_uid')} WHERE uid = OLD.task_uid;
  UPDATE tasks SET rel_blocks = ${rel.blocks('OLD.blocker_uid')} WHERE uid = OLD.blocker_uid;
END;
CREATE TRIGGER tasks_rel_insert AFTER INSERT ON tasks WHEN NEW.parent_uid IS NOT NULL BEGIN
  UPDATE tasks SET parent_id = ${rel.displayId('NEW.parent_uid')} WHERE num = NEW.num;
  UPDATE tasks SET rel_children = ${rel.children('NEW.parent_uid')} WHERE uid = NEW.parent_uid;
END;
CREATE TRIGGER tasks_rel_parent AFTER UPDATE OF parent_uid ON tasks WHEN OLD.parent_uid IS NOT NEW.parent_uid BEGIN
  UPDATE tasks SET parent_id = ${rel.displayId('NEW.parent_uid')} WHERE num = NEW.num;
  UPDATE tasks SET rel_children = ${rel.children('OLD.parent_uid')} WHERE uid = OLD.parent_uid;
  UPDATE tasks SET rel_children = ${rel.children('NEW.parent_uid')} WHERE uid = NEW.parent_uid;
END;
CREATE TRIGGER tasks_rel_deleted AFTER UPDATE OF deleted_at ON tasks WHEN (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) BEGIN
  UPDATE tasks SET rel_children = ${rel.children('NEW.parent_uid')} WHERE uid = NEW.parent_uid;
  UPDATE tasks SET rel_blocks = ${rel.blocks('tasks.uid')} WHERE uid IN (SELECT blocker_uid FROM dependencies WHERE task_uid = NEW.uid);
END;
CREATE TRIGGER tasks_rel_purge AFTER DELETE ON tasks WHEN OLD.parent_uid IS NOT NULL BEGIN
  UPDATE tasks SET rel_children = ${rel.children('OLD.parent_uid')} WHERE uid = OLD.parent_uid;
END;
`,
  },
  {
    version: 7,
    name: 'ready indexes answer the claim test',
    // The ready queue takes the best n abandoned claims. Keyed by expiry, an index returns every
    // lapsed claim of the project for a sort; keyed in ready order, the walk stops after n,
    // skipping live leases on the index entry itself (there are about as many as working agents).
    // The todo half's indexes gain the claim columns, so the claim test reads no task row either.
    // tasks_open gains the stored labels, so a label filter on an open list is tested on the index
    // entry instead of probing task_labels once per task walked.
    sql: `
DROP INDEX IF EXISTS tasks_open;
CREATE INDEX tasks_open ON tasks (project_uid, priority DESC, score DESC, position, created_at, uid, category, archived_at, deleted_at, rel_labels)
  WHERE category NOT IN ('done', 'canceled') AND archived_at IS NULL AND deleted_at IS NULL;
DROP INDEX IF EXISTS tasks_ready_all;
DROP INDEX IF EXISTS tasks_ready_project;
CREATE INDEX tasks_ready_all ON tasks (priority DESC, score DESC, position, created_at, uid, claimed_by, claim_expires_at)
  WHERE category = 'todo' AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_ready_project ON tasks (project_uid, priority DESC, score DESC, position, created_at, uid, claimed_by, claim_expires_at)
  WHERE category = 'todo' AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
DROP INDEX IF EXISTS tasks_abandoned;
DROP INDEX IF EXISTS tasks_abandoned_project;
CREATE INDEX tasks_abandoned ON tasks (priority DESC, score DESC, position, created_at, uid, claim_expires_at, claimed_by, category, open_blockers, archived_at, deleted_at)
  WHERE category = 'in_progress' AND claimed_by IS NOT NULL AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_abandoned_project ON tasks (project_uid, priority DESC, score DESC, position, created_at, uid, claim_expires_at, claimed_by, category, open_blockers, archived_at, deleted_at)
  WHERE category = 'in_progress' AND claimed_by IS NOT NULL AND open_blockers = 0 AND archived_at IS NULL AND deleted_at IS NULL;
`,
  },
  {
    version: 8,
    name: 'labels written with a new task',
    // A new task's row arrives with its labels already in rel_labels. Rewriting that row (and its
    // tasks_open entry, which holds the column) once per label would make labelled creates the
    // slowest write, so the insert trigger leaves the row alone when the array already holds the
    // label. Other paths stay exact: they reach a label insert from an array recomputed without
    // that label (setLabels deletes first). A label missing from the array, or spelt differently
    // there, is still recomputed from task_labels; the one caller that writes the array with the
    // row (createTask) inserts exactly those labels, as the property test checks.
    sql: `
DROP TRIGGER IF EXISTS task_labels_rel_insert;
CREATE TRIGGER task_labels_rel_insert AFTER INSERT ON task_labels BEGIN
  UPDATE tasks SET rel_labels = ${rel.labels('NEW.task_uid')}
    WHERE uid = NEW.task_uid AND NOT (instr(rel_labels, '[' || json_quote(NEW.label)) = 1 OR instr(rel_labels, ',' || json_quote(NEW.label)) > 0);
END;
`,
  },
  {
    version: 9,
    name: 'search index merges only full levels',
    // FTS5's automerge does a slice of merge work inside the committing transaction every 64 leaf
    // pages written (about every 32 task writes), so a few percent of writes pay for a merge, and
    // they set the update p99. With automerge off, segments are merged only when 16 share a level
    // (FTS5's crisis merge, also inside COMMIT but small and rare at the upper levels), and search
    // does not slow down as thousands of tasks are added (docs/decisions.md). The setting is
    // stored in the index.
    sql: `INSERT INTO task_search (task_search, rank) VALUES ('automerge', 0);`,
  },
  {
    version: 10,
    name: 'open tasks by label in ready order',
    // On tasks_open, "the open work of this project carrying this label" walks the index in ready
    // order and tests each entry's stored labels: hundreds of entries for a 50-row page, and an exact
    // total that reads every open task of the project after every write. label_order holds
    // one entry per label of each open task, keyed in ready order, so the page reads 50 entries
    // and the total counts one label's range. Triggers keep it: label edits (task_labels), changes
    // to a task's order or openness (the UPDATE OF columns), and purges. They read the labels
    // from task_labels; only a purge, whose label rows the cascade may already have removed,
    // reads the row's rel_labels (kept equal to them by the label triggers).
    sql: `
CREATE TABLE label_order (
  project_uid TEXT NOT NULL,
  label TEXT NOT NULL,
  priority INTEGER NOT NULL,
  score REAL NOT NULL,
  position REAL NOT NULL,
  created_at TEXT NOT NULL,
  uid TEXT NOT NULL,
  num INTEGER NOT NULL,
  PRIMARY KEY (project_uid, label, priority DESC, score DESC, position, created_at, uid)
) WITHOUT ROWID;
INSERT INTO label_order (project_uid, label, priority, score, position, created_at, uid, num)
SELECT t.project_uid, l.label, t.priority, t.score, t.position, t.created_at, t.uid, t.num
FROM task_labels l JOIN tasks t ON t.uid = l.task_uid
WHERE ${open('t')};
CREATE TRIGGER label_order_label_insert AFTER INSERT ON task_labels BEGIN
  INSERT INTO label_order (project_uid, label, priority, score, position, created_at, uid, num)
  SELECT t.project_uid, NEW.label, t.priority, t.score, t.position, t.created_at, t.uid, t.num
  FROM tasks t WHERE t.uid = NEW.task_uid AND ${open('t')};
END;
CREATE TRIGGER label_order_label_delete AFTER DELETE ON task_labels BEGIN
  DELETE FROM label_order WHERE (project_uid, label, priority, score, position, created_at, uid) IN
    (SELECT t.project_uid, OLD.label, t.priority, t.score, t.position, t.created_at, t.uid FROM tasks t WHERE t.uid = OLD.task_uid);
END;
CREATE TRIGGER label_order_task_update AFTER UPDATE OF project_uid, priority, score, position, created_at, category, archived_at, deleted_at ON tasks
WHEN EXISTS (SELECT 1 FROM task_labels WHERE task_uid = OLD.uid) AND (
  OLD.project_uid IS NOT NEW.project_uid OR OLD.priority IS NOT NEW.priority OR OLD.score IS NOT NEW.score
  OR OLD.position IS NOT NEW.position OR OLD.created_at IS NOT NEW.created_at OR (${open('OLD')}) <> (${open('NEW')})
) BEGIN
  ${dropLabelOrder('OLD', 'SELECT label FROM task_labels WHERE task_uid = OLD.uid')}
  INSERT INTO label_order (project_uid, label, priority, score, position, created_at, uid, num)
  SELECT NEW.project_uid, l.label, NEW.priority, NEW.score, NEW.position, NEW.created_at, NEW.uid, NEW.num
  FROM task_labels l WHERE l.task_uid = NEW.uid AND ${open('NEW')};
END;
CREATE TRIGGER label_order_task_delete AFTER DELETE ON tasks WHEN OLD.rel_labels <> '[]' BEGIN
  ${dropLabelOrder('OLD', 'SELECT value FROM json_each(OLD.rel_labels)')}
END;
`,
  },
  {
    version: 11,
    name: 'row revisions',
    // A list page names its rows by (num, uid, rev) and parses only those a reader has not seen at
    // that revision (store/queries/summary-cache.ts): serializing 28 values per row in SQLite and
    // parsing them would be most of a 50-row page's cost. rev must move with every change to the row,
    // whoever makes it: the service's hot UPDATEs set rev = rev + 1 themselves, and this trigger
    // moves it after any UPDATE that did not (relation triggers, bulk status changes, a future
    // path that forgets), so a stale summary cannot match. Its own UPDATE touches only rev, which
    // no other trigger watches, and a trigger does not fire itself again.
    sql: `
ALTER TABLE tasks ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER tasks_rev AFTER UPDATE ON tasks WHEN NEW.rev = OLD.rev BEGIN
  UPDATE tasks SET rev = OLD.rev + 1 WHERE num = NEW.num;
END;
`,
  },
  {
    version: 12,
    name: 'no index of tasks by label',
    // No query looks task_labels up by label: label filters test the row's stored labels or walk
    // label_order, and counting labels scans task_labels in task order, which finds each task row
    // next to the last, faster than walking this index. Keeping it would cost each label of a new or
    // relabelled task an entry (and, in a large workspace, a page) here.
    sql: `DROP INDEX IF EXISTS task_labels_label;`,
  },
  {
    version: 13,
    name: 'hidden tasks indexed below zero',
    // Archived and deleted tasks keep their search row under the negated task number instead of
    // an "x" in a sixth column. The default search then asks FTS5 for rowid > 0, which skips them
    // in the doclists' own order; "… NOT hidden : x" would walk the marker's doclist beside every
    // match, a large share of a typical ranking. Ranking does not change: hidden rows still count
    // in the index statistics. The bulk insert leaves dozens of segments; 'optimize' merges them
    // once. The trigger moves a row across zero whenever a task is hidden or shown, whichever
    // path does it.
    sql: `
DROP TRIGGER IF EXISTS tasks_search_hidden;
DROP TABLE IF EXISTS task_search;
CREATE VIRTUAL TABLE task_search USING fts5(
  title, labels, description, comments, checklist,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
INSERT INTO task_search (task_search, rank) VALUES ('automerge', 0);
INSERT INTO task_search (rowid, title, labels, description, comments, checklist)
SELECT CASE WHEN t.archived_at IS NULL AND t.deleted_at IS NULL THEN t.num ELSE -t.num END, t.title,
  COALESCE((SELECT group_concat(label, ' ') FROM task_labels l WHERE l.task_uid = t.uid), ''),
  t.description,
  COALESCE((SELECT group_concat(body, ' ') FROM comments c WHERE c.task_uid = t.uid), ''),
  COALESCE((SELECT group_concat(text, ' ') FROM checklist_items i WHERE i.task_uid = t.uid), '')
FROM tasks t;
INSERT INTO task_search (task_search) VALUES ('optimize');
CREATE TRIGGER tasks_search_hidden AFTER UPDATE OF archived_at, deleted_at ON tasks
WHEN (OLD.archived_at IS NULL AND OLD.deleted_at IS NULL) <> (NEW.archived_at IS NULL AND NEW.deleted_at IS NULL)
BEGIN
  INSERT OR REPLACE INTO task_search (rowid, title, labels, description, comments, checklist)
    SELECT -rowid, title, labels, description, comments, checklist FROM task_search
    WHERE rowid = CASE WHEN NEW.archived_at IS NULL AND NEW.deleted_at IS NULL THEN -NEW.num ELSE NEW.num END;
  DELETE FROM task_search WHERE rowid = CASE WHEN NEW.archived_at IS NULL AND NEW.deleted_at IS NULL THEN -NEW.num ELSE NEW.num END;
END;
`,
  },
  {
    version: 14,
    name: 'task substatus and slug',
    // DevPlanner's card status (a sub-state within the lane) and card slug. A slug is unique within
    // its project: the partial unique index holds that under any number of writers (the store turns
    // its refusal into SLUG_TAKEN), and serves the slug filter (slug = ? implies slug IS NOT NULL).
    // Both columns start NULL, so existing rows are unchanged.
    sql: `
ALTER TABLE tasks ADD COLUMN substatus TEXT;
ALTER TABLE tasks ADD COLUMN slug TEXT;
CREATE UNIQUE INDEX tasks_slug ON tasks (project_uid, slug) WHERE slug IS NOT NULL;
`,
  },
  {
    version: 15,
    name: 'events record who acted through whom',
    // An admin token acting as an agent: the event's actor is the agent, `via` the token
    // ("token:ci"). NULL when the caller acted as itself, so existing rows are unchanged.
    sql: `
ALTER TABLE events ADD COLUMN via TEXT;
`,
  },
  {
    version: 16,
    name: 'open blocker ids stored',
    // Beside the open_blockers count, the display ids of those blockers (JSON array, blockedBy's
    // order), kept by the same refresh (store/queries/tasks.ts refreshOpenBlockers): every view
    // says "blocked by" from it and none recomputes which blockers are still open.
    sql: `
ALTER TABLE tasks ADD COLUMN rel_open_blocked_by TEXT NOT NULL DEFAULT '[]';
UPDATE tasks SET rel_open_blocked_by = ${rel.openBlockedBy('tasks.uid')} WHERE open_blockers > 0;
`,
  },
  {
    version: 17,
    name: 'idempotency keys',
    // A write that carries an idempotency key (a handoff, an outbox delivery's Idempotency-Key
    // header) records it in its own transaction; a repeat finds it and changes nothing. The primary
    // key makes two concurrent first uses collide rather than both write.
    sql: `
CREATE TABLE idempotency_keys (
  key TEXT PRIMARY KEY,
  op TEXT NOT NULL,
  task_uid TEXT,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
`,
  },
  {
    version: 18,
    name: "a project's tasks by update and creation time",
    // Castle lists a project's tasks most recently updated first, and list_tasks sorts by either.
    // Without these SQLite sorts every task of the project (or walks the global updated_at index
    // testing each row); walking one of these stops at the page. Every update moves its updated_at
    // entry, as it moves the global one's; created_at never changes.
    sql: `
CREATE INDEX IF NOT EXISTS tasks_project_updated ON tasks (project_uid, updated_at, uid);
CREATE INDEX IF NOT EXISTS tasks_project_created ON tasks (project_uid, created_at, uid);
`,
  },
  {
    version: 19,
    name: 'search index leaves that fit a page',
    // FTS5 writes its leaves as blobs of up to `pgsz` bytes (4050 by default, sized for 4 KiB
    // pages). In a file of 1 KiB pages each leaf would spill into a chain of four; there a leaf a
    // little under the page stays in one. Files of 2 KiB pages (store/sqlite/open.ts
    // NEW_FILE_PAGE_SIZE) and larger keep the default: with leaves of half the size FTS5 spreads its
    // segments over more merge levels, where the quiet-time merge (search-upkeep.ts) leaves them.
    // Leaves already written keep their size until a merge rewrites them.
    sql: `
INSERT INTO task_search (task_search, rank) SELECT 'pgsz', page_size - page_size / 16 FROM pragma_page_size() WHERE page_size < 2048;
`,
  },
  {
    version: 20,
    name: 'fewer b-trees written per task write',
    // A commit appends to the log every page it changed, about one per b-tree a write touches
    // (docs/decisions.md, "Write volume"). Three of them are dropped here, and a fourth is kept only
    // for tasks out of open work.
    // The events table loses AUTOINCREMENT, whose sqlite_sequence row is rewritten by every write
    // (a page each). Its numbers stay the same: events are never deleted, so the largest seq plus
    // one, which SQLite gives a plain INTEGER PRIMARY KEY, is what AUTOINCREMENT gave. The table is
    // rebuilt with its rows and indexes.
    // tasks_ready_all and tasks_abandoned hold the ready queue of all projects, the same entries as
    // tasks_ready_project and tasks_abandoned_project in another order, so they go: a queue over
    // several projects merges each project's best page (store/queries/task-list.ts readyQuery).
    // tasks_order (every task in ready order) becomes tasks_closed, holding only tasks out of open
    // work (done, canceled, archived or deleted): tasks_open holds the others in the same order, so
    // a write to an open task (a create, a priority change) rewrites an entry in one index, not two.
    // A list that mixes open and closed work takes the best page of each and merges them
    // (store/queries/task-list.ts); its WHERE repeats this index's with literal constants, as
    // SQLite uses a partial index only when it can prove the query implies it. Like tasks_open it
    // ends with the columns of that test, so a half that looks for archived or deleted tasks among
    // the closed ones tests the entries without reading rows.
    sql: `
CREATE TABLE events_new (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  project_uid TEXT,
  task_uid TEXT,
  type TEXT NOT NULL,
  changes TEXT NOT NULL DEFAULT '{}',
  via TEXT
);
INSERT INTO events_new (seq, at, actor, project_uid, task_uid, type, changes, via)
  SELECT seq, at, actor, project_uid, task_uid, type, changes, via FROM events ORDER BY seq;
DROP TABLE events;
ALTER TABLE events_new RENAME TO events;
CREATE INDEX events_task ON events (task_uid, seq) WHERE task_uid IS NOT NULL;
CREATE INDEX events_project ON events (project_uid, seq);
DELETE FROM sqlite_sequence WHERE name = 'events';
DROP INDEX IF EXISTS tasks_ready_all;
DROP INDEX IF EXISTS tasks_abandoned;
DROP INDEX IF EXISTS tasks_order;
CREATE INDEX tasks_closed ON tasks (project_uid, priority DESC, score DESC, position, created_at, uid, category, archived_at, deleted_at)
  WHERE category IN ('done', 'canceled') OR archived_at IS NOT NULL OR deleted_at IS NOT NULL;
`,
  },
  {
    version: 21,
    name: 'linked sources',
    // A link ties projects to a store another program owns (docs/links.md). link_items remembers,
    // per record of the source, the task it is and a hash of the fields the source holds as last
    // synced, so a sync applies only records whose hash moved and tells its own writes from the
    // owner's. link_files holds each file's identity (inode, size, times) as last read, so a new
    // process re-reads only what changed since. All of it is written in the transaction that syncs.
    sql: LINK_TABLES_SQL('TEXT'),
  },
  {
    version: 22,
    name: 'deleted blockers leave blockedBy',
    // A deleted task is out of blocks, children and every open-blocker count, so it must leave its
    // dependents' blockedBy too: otherwise a ready task lists a blocker nobody can see. The
    // triggers are rebuilt with rel.blockedBy that skips deleted blockers, and a task's deletion
    // or restore rewrites its dependents' blockedBy as well.
    sql: `
DROP TRIGGER dependencies_rel_insert;
DROP TRIGGER dependencies_rel_delete;
DROP TRIGGER tasks_rel_deleted;
CREATE TRIGGER dependencies_rel_insert AFTER INSERT ON dependencies BEGIN
  UPDATE tasks SET rel_blocked_by = ${rel.blockedBy('NEW.task_uid')} WHERE uid = NEW.task_uid;
  UPDATE tasks SET rel_blocks = ${rel.blocks('NEW.blocker_uid')} WHERE uid = NEW.blocker_uid;
END;
CREATE TRIGGER dependencies_rel_delete AFTER DELETE ON dependencies BEGIN
  UPDATE tasks SET rel_blocked_by = ${rel.blockedBy('OLD.task_uid')} WHERE uid = OLD.task_uid;
  UPDATE tasks SET rel_blocks = ${rel.blocks('OLD.blocker_uid')} WHERE uid = OLD.blocker_uid;
END;
CREATE TRIGGER tasks_rel_deleted AFTER UPDATE OF deleted_at ON tasks WHEN (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) BEGIN
  UPDATE tasks SET rel_children = ${rel.children('NEW.parent_uid')} WHERE uid = NEW.parent_uid;
  UPDATE tasks SET rel_blocks = ${rel.blocks('tasks.uid')} WHERE uid IN (SELECT blocker_uid FROM dependencies WHERE task_uid = NEW.uid);
  UPDATE tasks SET rel_blocked_by = ${rel.blockedBy('tasks.uid')} WHERE uid IN (SELECT task_uid FROM dependencies WHERE blocker_uid = NEW.uid);
END;
UPDATE tasks SET rel_blocked_by = ${rel.blockedBy('tasks.uid')}
  WHERE uid IN (SELECT d.task_uid FROM dependencies d JOIN tasks b ON b.uid = d.blocker_uid WHERE b.deleted_at IS NOT NULL);
`,
  },
  {
    version: 23,
    name: 'substring search',
    // Word search misses "auth" in "OAuth" and "darkmode" for "dark mode". task_grams holds each
    // task's title and labels squashed (queries/substring.ts) under FTS5's trigram tokenizer, whose
    // index answers LIKE '%…%' (detail none: no positions, a third of the size). Triggers keep it,
    // whichever path writes a task; rowid is the task number whatever its visibility (the search's
    // filter reads that from the task row).
    sql: `
CREATE VIRTUAL TABLE task_grams USING fts5(grams, tokenize = 'trigram', detail = 'none');
INSERT INTO task_grams (rowid, grams) SELECT num, ${gramsSqlite('tasks')} FROM tasks;
CREATE TRIGGER tasks_grams_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO task_grams (rowid, grams) VALUES (NEW.num, ${gramsSqlite('NEW')});
END;
CREATE TRIGGER tasks_grams_update AFTER UPDATE OF title, rel_labels ON tasks BEGIN
  UPDATE task_grams SET grams = ${gramsSqlite('NEW')} WHERE rowid = NEW.num;
END;
CREATE TRIGGER tasks_grams_delete AFTER DELETE ON tasks BEGIN
  DELETE FROM task_grams WHERE rowid = OLD.num;
END;
`,
  },
  {
    version: 24,
    name: 'idempotency keys with rules',
    // A key remembers what its first request asked (a fingerprint: the same key with another body is
    // refused, not replayed) and expires after its retention (the index finds the expired ones). A key's
    // scope (the token that sent it) is part of the stored key: queries/idempotency.ts.
    sql: `
ALTER TABLE idempotency_keys ADD COLUMN fingerprint TEXT;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`,
  },
  {
    version: 25,
    name: 'tokens limited to projects',
    // A JSON array of project uids (uids, not keys: the limit names projects, whatever they are called);
    // NULL reaches every project. core/limited-store.ts enforces it.
    sql: `
ALTER TABLE api_tokens ADD COLUMN projects TEXT;
`,
  },
  {
    version: 26,
    name: 'coordination: claim generations, lapsed leases, reserved paths, evidence, checkpoints',
    // claim_generation: the fencing number, +1 on every claim that is not a renewal (core/services/claims.ts).
    // touches: the JSON array of paths or globs the task edits (reservations.ts); claim_where: JSON of
    // the worktree, branch and HEAD a claim was made from; evidence: JSON of a completion's evidence;
    // checkpoint: JSON of the latest checkpoint (every one is also an event in the history).
    // projects.require_evidence: 1 refuses a completion without evidence (lifecycle.ts).
    // claim_lapsed: 1 once a lease's end has been announced as task.claim_expired (lease-expiry.ts);
    // the partial index holds only leases still to announce, so the sweep reads a handful of rows.
    // Leases already over when this runs are marked announced: their expiry is old news.
    sql: `
ALTER TABLE tasks ADD COLUMN claim_generation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN claim_lapsed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN claim_where TEXT;
ALTER TABLE tasks ADD COLUMN touches TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tasks ADD COLUMN evidence TEXT;
ALTER TABLE tasks ADD COLUMN checkpoint TEXT;
ALTER TABLE projects ADD COLUMN require_evidence INTEGER NOT NULL DEFAULT 0;
UPDATE tasks SET claim_generation = 1 WHERE claimed_by IS NOT NULL;
UPDATE tasks SET claim_lapsed = 1 WHERE claimed_by IS NOT NULL AND claim_expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now');
CREATE INDEX tasks_lease_due ON tasks (claim_expires_at) WHERE claimed_by IS NOT NULL AND claim_lapsed = 0;
`,
  },
];

export const LATEST_SQLITE_VERSION = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]!.version;
