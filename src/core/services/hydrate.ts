/** Turns stored rows into the task shapes callers see: relations, readiness and progress attached in batch. */
import type { Tx, TaskRow, TaskSummaryRow } from '../ports.js';
import type { ChecklistItem, Comment, Task, TaskSummary } from '../model/task.js';
import { isClaimLive, isReady } from '../rules/readiness.js';

export const displayIdOf = (t: Pick<TaskRow, 'projectKey' | 'seq'>): string => `${t.projectKey}-${t.seq}`;

/** Summaries of rows: the rows carry their relations, so this reads nothing more. */
export function summarize(rows: TaskSummaryRow[], now: string, actor?: string): TaskSummary[] {
  return rows.map((r) => {
    const stored = r.claimedBy && r.claimExpiresAt ? { actor: r.claimedBy, expiresAt: r.claimExpiresAt } : null;
    const claim = stored && isClaimLive(stored, now) ? stored : null;
    return {
      id: displayIdOf(r),
      uid: r.uid,
      project: r.projectKey,
      title: r.title,
      status: r.status,
      statusCategory: r.category,
      kind: r.kind,
      priority: r.priority,
      score: r.score,
      labels: r.labels,
      assignee: r.assignee,
      substatus: r.substatus,
      slug: r.slug,
      claim,
      parentId: r.parentId,
      position: r.position,
      version: r.version,
      blockedBy: r.blockedBy,
      openBlockers: r.openBlockerIds,
      blocks: r.blocks,
      children: r.children,
      isReady: isReady({ category: r.category, archived: r.archivedAt !== null, deleted: r.deletedAt !== null, claim: stored, openBlockers: r.openBlockers }, { now, ...(actor ? { actor } : {}) }),
      checklistProgress: { done: r.checklistDone, total: r.checklistTotal },
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  });
}

/** The full task: summary plus description, checklist, comments, links and child roll-up. */
export async function hydrate(tx: Tx, row: TaskRow, now: string, actor?: string, known: { checklist?: ChecklistItem[]; comments?: Comment[] } = {}): Promise<Task> {
  // One after another: the store runs them on one connection anyway, and the summary already
  // lists the (undeleted) children, so the child roll-up query runs only for tasks that have some.
  const [summary] = summarize([row], now, actor);
  if (summary!.claim) {
    summary!.claim.generation = row.claimGeneration;
    if (row.claimWhere) summary!.claim.where = row.claimWhere;
  }
  // The row counts its checklist items: most tasks have none, and then there is nothing to read.
  const checklist = known.checklist ?? (row.checklistTotal === 0 ? [] : await tx.getChecklist(row.uid));
  const comments = known.comments ?? (await tx.getComments(row.uid));
  let childProgress = null;
  if (summary!.children.length > 0) {
    const kids = await tx.getTasks(await tx.childUids(row.uid));
    childProgress = { done: kids.filter((k) => k.category === 'done' || k.category === 'canceled').length, total: kids.length };
  }
  // Object.assign, not a spread: see toTaskRow (store/queries/rows.ts) for what a spread costs the GC.
  return Object.assign(summary!, {
    description: row.description,
    checklist,
    comments,
    links: row.links,
    anchors: row.anchors,
    touches: row.touches,
    evidence: row.evidence,
    checkpoint: row.checkpoint,
    closeReason: row.closeReason,
    origin: row.origin,
    documentPath: row.documentPath,
    childProgress,
    completedAt: row.completedAt,
    archivedAt: row.archivedAt,
    deletedAt: row.deletedAt,
  });
}
