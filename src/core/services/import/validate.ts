/**
 * Every imported value passes the rule its create passes (the schemas in core/model), so an import
 * can store nothing `create_task` or `project create` would refuse: a key like `../x` that later
 * names a folder, a 5,000-character title, a label with a comma. Values come back as create stores
 * them (trimmed); a bad one is an import error naming the file, line and field.
 */
import type * as z from 'zod';
import { ProjectKey } from '../../model/ids.js';
import { Aliases, ProjectDescription, ProjectName, ProjectRoot } from '../../model/project.js';
import { Anchors, Assignee, ChecklistText, CloseReason, CommentBody, Description, DocumentPath, Labels, Links, Origin, Score, Slug, Substatus, Title } from '../../model/task.js';
import { Color, StatusName } from '../../model/workflow.js';
import { Touches } from '../../model/coordination.js';
import { taskAnchors, taskTouches } from '../../places/repo-paths.js';
import { importError, type IncomingProject, type IncomingTask, type SourceAt } from './model.js';

const preview = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
};

function check<T>(at: SourceAt, field: string, schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const sub = field + issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('');
  // Long values are named by their size, not printed.
  const got = typeof value === 'string' && value.length > 60 ? `${value.length} characters` : preview(value);
  throw importError(at, sub, `${issue.message} (got ${got})`);
}

const orNull = <T>(at: SourceAt, field: string, schema: z.ZodType<T>, value: unknown): T | null => (value === null ? null : check(at, field, schema, value));

export function checkProject(p: IncomingProject): void {
  const { at } = p;
  p.key = check(at, 'key', ProjectKey, p.key);
  p.name = check(at, 'name', ProjectName, p.name);
  p.description = check(at, 'description', ProjectDescription, p.description);
  p.root = orNull(at, 'root', ProjectRoot, p.root);
  p.aliases = check(at, 'aliases', Aliases, p.aliases);
  p.statuses?.forEach((s, i) => {
    s.name = check(at, `statuses[${i}].name`, StatusName, s.name);
    check(at, `statuses[${i}].color`, Color, s.color);
    if (!s.displayName.trim() || s.displayName.length > 60) throw importError(at, `statuses[${i}].displayName`, `expected 1–60 characters (got ${preview(s.displayName)})`);
  });
}

export function checkTask(t: IncomingTask): void {
  const { at } = t;
  t.title = check(at, 'title', Title, t.title);
  t.description = check(at, 'description', Description, t.description);
  t.labels = check(at, 'labels', Labels, t.labels);
  t.assignee = orNull(at, 'assignee', Assignee, t.assignee);
  t.substatus = orNull(at, 'substatus', Substatus, t.substatus);
  t.slug = orNull(at, 'slug', Slug, t.slug);
  t.score = check(at, 'score', Score, t.score);
  t.links = check(at, 'links', Links(), t.links);
  t.anchors = check(at, 'anchors', Anchors, t.anchors);
  try {
    // No repository is known for an import's anchors: relative paths that stay inside.
    t.anchors = taskAnchors(t.anchors, null);
  } catch (err) {
    throw importError(at, 'anchors', (err as Error).message.replace(/ Nothing was changed\.$/, ''));
  }
  if (t.touches !== undefined) {
    t.touches = check(at, 'touches', Touches, t.touches);
    try {
      t.touches = taskTouches(t.touches, null);
    } catch (err) {
      throw importError(at, 'touches', (err as Error).message.replace(/ Nothing was changed\.$/, ''));
    }
  }
  t.closeReason = orNull(at, 'closeReason', CloseReason, t.closeReason);
  t.origin = orNull(at, 'origin', Origin, t.origin);
  t.documentPath = orNull(at, 'documentPath', DocumentPath, t.documentPath);
  t.checklist.forEach((c, i) => {
    c.text = check(at, `checklist[${i}].text`, ChecklistText, c.text);
  });
  t.comments.forEach((c, i) => {
    c.body = check(at, `comments[${i}].body`, CommentBody, c.body);
  });
}
