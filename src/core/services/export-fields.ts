/**
 * A task's transferable fields, defined once: the JSONL task line writes them in this order, the
 * markdown front matter writes them in the same order (spelled as `front` says where it differs),
 * and the Cairn reader reads each back into the import model. A field added here reaches every
 * surface; one left out of here is named in TASK_FIELDS_NOT_TRANSFERRED or the transfer test fails.
 */
import { Checkpoint, Evidence } from '../model/coordination.js';
import { KINDS, PRIORITIES, PrState, type Task } from '../model/task.js';
import type { TaskDump } from '../transfer-port.js';
import { importError, reader, type IncomingTask, type Reader, type SourceAt } from './import/model.js';

export interface TaskField<K extends keyof IncomingTask, L, F> {
  /** The fields of the Task schema (what `get` returns) this one carries. */
  carries: ReadonlyArray<keyof Task>;
  /** Parts of those fields the line leaves out, and why (the round-trip test expects them lost). */
  drops?: Readonly<Record<string, string>>;
  /** Its value on the JSONL task line. */
  line: (d: TaskDump) => L;
  /** Its value in the front matter; null: kept out of it (the body holds it). */
  front: ((d: TaskDump) => F) | null;
  /** Where the Cairn reader puts it in the import model, and how it reads it from a task line. */
  into: K;
  read: (r: Reader, at: SourceAt) => IncomingTask[K];
}

// Each entry through this, so every reader is checked against the import model's type for its key.
const field = <K extends keyof IncomingTask, L, F = L>(f: Omit<TaskField<K, L, F>, 'front'> & { front?: ((d: TaskDump) => F) | null }): TaskField<K, L, F> => ({
  ...f,
  front: f.front === undefined ? (f.line as unknown as (d: TaskDump) => F) : f.front,
});

const displayId = (d: TaskDump) => `${d.row.projectKey}-${d.row.seq}`;

function readSeq(r: Reader, at: SourceAt): number {
  const id = r.str('id');
  const seq = Number(id.slice(id.lastIndexOf('-') + 1));
  if (!Number.isInteger(seq) || seq < 1) throw importError(at, 'id', `"${id}" is not a display id like API-12`);
  return seq;
}

function readLinks(r: Reader, at: SourceAt): IncomingTask['links'] {
  const links = r.has('links') ? r.field('links').obj : {};
  if (links.prState !== undefined && !PrState.safeParse(links.prState).success) throw importError(at, 'links.prState', `expected one of ${PrState.options.join(', ')}`);
  return links as IncomingTask['links'];
}

/** In line order: changing the order or a spelling changes every export's bytes. */
export const TASK_FIELDS = {
  id: field({ carries: ['id'], line: displayId, into: 'seq', read: readSeq }),
  uid: field({ carries: ['uid'], line: (d) => d.row.uid, into: 'uid', read: (r) => r.str('uid') }),
  title: field({ carries: ['title'], line: (d) => d.row.title, into: 'title', read: (r) => r.str('title') }),
  status: field({ carries: ['status'], line: (d) => d.row.status, into: 'status', read: (r) => r.str('status') }),
  kind: field({ carries: ['kind'], line: (d) => d.row.kind, into: 'kind', read: (r) => r.oneOf('kind', KINDS, 'task') }),
  priority: field({ carries: ['priority'], line: (d) => d.row.priority, into: 'priority', read: (r) => r.oneOf('priority', PRIORITIES, 'none') }),
  score: field({ carries: ['score'], line: (d) => d.row.score, into: 'score', read: (r) => r.numOr('score', 0) }),
  position: field({ carries: ['position'], line: (d) => d.row.position, into: 'position', read: (r) => r.numOr('position', undefined) }),
  labels: field({ carries: ['labels'], line: (d) => d.row.labels, into: 'labels', read: (r) => r.strs('labels') }),
  assignee: field({ carries: ['assignee'], line: (d) => d.row.assignee, into: 'assignee', read: (r) => r.strOr('assignee', null) }),
  substatus: field({ carries: ['substatus'], line: (d) => d.row.substatus, into: 'substatus', read: (r) => r.strOr('substatus', null) }),
  slug: field({ carries: ['slug'], line: (d) => d.row.slug, into: 'slug', read: (r) => r.strOr('slug', null) }),
  claim: field({
    carries: ['claim'],
    drops: {
      generation: "the fencing number counts claims in the workspace that made them: an imported claim is the importing workspace's first (1)",
      where: "the claimer's worktree, branch and HEAD on the machine that made the claim",
    },
    line: (d) => (d.row.claimedBy !== null ? { actor: d.row.claimedBy, expiresAt: d.row.claimExpiresAt } : null),
    into: 'claim',
    read: (r) => {
      if (!r.has('claim')) return null;
      const c = r.field('claim');
      return { actor: c.str('actor'), expiresAt: c.strOr('expiresAt', null) };
    },
  }),
  // The line names the parent by uid too (an import links by uid); the front matter by display id, for people.
  parent: field({
    carries: ['parentId'],
    line: (d) => (d.row.parentUid !== null ? { id: d.row.parentId, uid: d.row.parentUid } : null),
    front: (d) => d.row.parentId,
    into: 'parent',
    read: (r) => (r.has('parent') ? r.field('parent').str('uid') : null),
  }),
  blockedBy: field({
    carries: ['blockedBy'],
    line: (d) => d.blockers.map((b) => ({ id: b.blockerId, uid: b.blockerUid, at: b.createdAt })),
    front: (d) => d.blockers.map((b) => b.blockerId),
    into: 'blockedBy',
    read: (r, at) =>
      r.arr('blockedBy').map((b, i) => {
        const f = reader(at, b, `blockedBy[${i}]`);
        return { ref: f.str('uid'), ...(f.has('at') ? { at: f.str('at') } : {}) };
      }),
  }),
  // The markdown body holds the checklist as `- [ ]` lines.
  checklist: field({
    carries: ['checklist'],
    line: (d) => d.checklist.map((i) => ({ text: i.text, checked: i.checked })),
    front: null,
    into: 'checklist',
    read: (r, at) =>
      r.arr('checklist').map((c, i) => {
        const f = reader(at, c, `checklist[${i}]`);
        return { text: f.str('text'), checked: f.bool('checked', false) };
      }),
  }),
  links: field({ carries: ['links'], line: (d) => d.row.links, into: 'links', read: readLinks }),
  anchors: field({ carries: ['anchors'], line: (d) => d.row.anchors, into: 'anchors', read: (r) => r.strs('anchors') }),
  // Exports made before tasks could reserve paths carry no touches: the task gets none.
  touches: field({ carries: ['touches'], line: (d) => d.row.touches, into: 'touches', read: (r) => (r.has('touches') ? r.strs('touches') : undefined) }),
  // Exports made before these were carried have neither key: an existing task keeps what it has (null clears).
  evidence: field({
    carries: ['evidence'],
    line: (d) => d.row.evidence,
    into: 'evidence',
    read: (r) => (Object.hasOwn(r.obj, 'evidence') ? r.checked('evidence', Evidence(), 'evidence: {status, at, actor} with commit, prUrl or test') : undefined),
  }),
  checkpoint: field({
    carries: ['checkpoint'],
    line: (d) => d.row.checkpoint,
    into: 'checkpoint',
    read: (r) => (Object.hasOwn(r.obj, 'checkpoint') ? r.checked('checkpoint', Checkpoint(), 'a checkpoint: {summary, at, actor}') : undefined),
  }),
  closeReason: field({ carries: ['closeReason'], line: (d) => d.row.closeReason, into: 'closeReason', read: (r) => r.strOr('closeReason', null) }),
  origin: field({ carries: ['origin'], line: (d) => d.row.origin, into: 'origin', read: (r) => r.strOr('origin', null) }),
  documentPath: field({ carries: ['documentPath'], line: (d) => d.row.documentPath, into: 'documentPath', read: (r) => r.strOr('documentPath', null) }),
  // The markdown body is the description.
  description: field({ carries: ['description'], line: (d) => d.row.description, front: null, into: 'description', read: (r) => r.strOr('description', '') }),
  version: field({ carries: ['version'], line: (d) => d.row.version, into: 'version', read: (r) => r.num('version') }),
  createdAt: field({ carries: ['createdAt'], line: (d) => d.row.createdAt, into: 'createdAt', read: (r) => r.str('createdAt') }),
  updatedAt: field({ carries: ['updatedAt'], line: (d) => d.row.updatedAt, into: 'updatedAt', read: (r) => r.str('updatedAt') }),
  completedAt: field({ carries: ['completedAt'], line: (d) => d.row.completedAt, into: 'completedAt', read: (r) => r.strOr('completedAt', null) }),
  archivedAt: field({ carries: ['archivedAt'], line: (d) => d.row.archivedAt, into: 'archivedAt', read: (r) => r.strOr('archivedAt', null) }),
  deletedAt: field({ carries: ['deletedAt'], line: (d) => d.row.deletedAt, into: 'deletedAt', read: (r) => r.strOr('deletedAt', null) }),
};

export type TaskFieldName = keyof typeof TASK_FIELDS;
type Fields = typeof TASK_FIELDS;
export const TASK_FIELD_NAMES = Object.keys(TASK_FIELDS) as TaskFieldName[];

/**
 * Fields of the Task schema no task line carries, and why. `rebuilt`: an import gives them back (derived
 * from what is carried, or carried on other lines); the others are lost on import, named here so
 * that leaving a field out is a decision and the round-trip test knows what not to expect.
 */
export const TASK_FIELDS_NOT_TRANSFERRED = {
  project: { rebuilt: true, why: 'the project line before the task names it (and the id starts with its key)' },
  statusCategory: { rebuilt: true, why: "derived: the status's category in the project's workflow" },
  openBlockers: { rebuilt: true, why: "derived from blockedBy and the blockers' states" },
  blocks: { rebuilt: true, why: "derived: the other tasks' blockedBy" },
  children: { rebuilt: true, why: "derived: the other tasks' parent" },
  isReady: { rebuilt: true, why: 'derived from status, claim and blockers' },
  checklistProgress: { rebuilt: true, why: 'derived from checklist' },
  childProgress: { rebuilt: true, why: 'derived from the children' },
  comments: { rebuilt: true, why: 'written as comment lines after the task line (commentLines)' },
} as const satisfies Partial<Record<keyof Task, { rebuilt: boolean; why: string }>>;

/** The import model's fields a task line does not fill: the reader sets them from around the line. */
type NotFromFields = 'type' | 'at' | 'projectRef' | 'sourceId' | 'shownId' | 'comments' | 'events';
// Fails to compile when the import model gains a field no entry reads (or one reads a field it lost).
type Unread = Exclude<keyof IncomingTask, Fields[TaskFieldName]['into'] | NotFromFields>;
const everyIncomingFieldRead: [Unread] extends [never] ? true : Unread = true;
void everyIncomingFieldRead;

type FrontName = { [K in TaskFieldName]: Fields[K]['front'] extends null ? never : K }[TaskFieldName];
/** The fields the markdown front matter holds, in order. */
export type MarkdownTaskFields = { [K in FrontName]: Fields[K]['front'] extends ((d: TaskDump) => infer F) | null ? F : never };
export const FRONT_MATTER_FIELDS = TASK_FIELD_NAMES.filter((k) => TASK_FIELDS[k].front !== null) as FrontName[];
