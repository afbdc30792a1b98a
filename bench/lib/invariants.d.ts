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
