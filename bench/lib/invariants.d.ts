/** Types for invariants.js (used from the TypeScript tests). */
export type Client = (op: string, args: Record<string, unknown>, key?: string) => Promise<any>;
export interface WorkloadRun {
  acked: { creates: Map<string, string>; comments: Map<string, string>; claims: string[] };
  errors: Record<string, number>;
  unexpected: string[];
  ops: number;
  ms: number;
}
export function runWorkload(opts: { clients: Client[]; project: string; steps: number; seed?: number }): Promise<WorkloadRun>;
export function checkInvariants(query: (sql: string) => Promise<Array<Record<string, any>>>, run: WorkloadRun): Promise<string[]>;
/** An activity event as the replay needs it (ActivityEvent has these, with `taskId`). */
export interface HoldEvent {
  seq?: number;
  at?: string;
  type: string;
  actor: string;
  task?: string | null;
  taskId?: string | null;
  changes?: Record<string, { before: unknown; after: unknown }>;
}
/** Writes to a claimed task by anyone but its live holder, or by a holder fenced out since; empty is a pass. */
export function nonHolderWrites(events: readonly HoldEvent[]): string[];
