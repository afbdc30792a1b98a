/** The rows the store keeps for projects and tasks, as the core reads them (ports.ts, transfer-port.ts). */
import type { Kind, Links, Priority } from './model/task.js';
import type { Checkpoint, ClaimWhere, Evidence } from './model/coordination.js';
import type { Category } from './model/workflow.js';

export interface ProjectRow {
  uid: string;
  key: string;
  name: string;
  description: string;
  root: string | null;
  aliases: string[];
  /** A completion must carry evidence (commit, PR or test run); absent: false. */
  requireEvidence?: boolean;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TaskRow {
  uid: string;
  projectUid: string;
  projectKey: string;
  seq: number;
  title: string;
  description: string;
  status: string;
  category: Category;
  kind: Kind;
  priority: Priority;
  score: number;
  position: number;
  assignee: string | null;
  /** Sub-state within the lane (free text, e.g. "blocked"). */
  substatus: string | null;
  /** Unique within the project when set. */
  slug: string | null;
  claimedBy: string | null;
  claimExpiresAt: string | null;
  /** The fencing number: +1 on every claim that is not its holder's renewal (0: never claimed). */
  claimGeneration: number;
  /** Where the current claim was made (worktree, branch, HEAD), when the claimer's directory is known. */
  claimWhere: ClaimWhere | null;
  /** Repo-relative paths or globs the task edits: a live claim reserves them (reservations.ts). */
  touches: string[];
  evidence: Evidence | null;
  /** The latest checkpoint (each one is also in the history). */
  checkpoint: Checkpoint | null;
  parentUid: string | null;
  /** Display id of the parent, derived. */
  parentId: string | null;
  /** Kept by the store in the same transaction: blockers neither resolved nor deleted, checklist counts. */
  openBlockers: number;
  checklistDone: number;
  checklistTotal: number;
  /** Kept by the store whenever labels, edges, parents or deletions change; display ids, in answer order. */
  labels: string[];
  blockedBy: string[];
  /** The blockedBy entries still open (neither done, canceled nor deleted): `openBlockers` of them. */
  openBlockerIds: string[];
  /** Undeleted dependents. */
  blocks: string[];
  /** Undeleted children. */
  children: string[];
  links: Links;
  anchors: string[];
  closeReason: string | null;
  origin: string | null;
  documentPath: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  archivedAt: string | null;
  deletedAt: string | null;
}
