/** Types for regressions.js (used from the TypeScript tests). */
export interface BenchResult {
  title?: string;
  /** The docs block (and baseline key) the section writes, when not its name. */
  block?: string;
  metrics?: Array<{ key: string; label: string; p50: number }>;
  values?: Array<{ key: string; label: string; value: number; unit: string }>;
}
/** machine-probe.js: ms for a fixed sort, a stdio round trip and a bare Node spawn. */
export interface Probe {
  cpu: number;
  pipe: number;
  spawn: number;
}
export type Results = Record<string, Record<string | number, BenchResult>>;
export interface Baseline {
  sections: Record<string, Record<string, { date: string; commit: string; machine: string; probe?: Probe; figures: Record<string, { label: string; p50?: number; value?: number; unit?: string }> }>>;
}
export interface Row {
  section: string;
  size: number;
  key: string;
  label: string;
  before: number;
  after: number;
  unit: string;
  ratio: number;
  slower: boolean;
  otherMachine: boolean;
  then: { date: string; commit: string };
  /** now ÷ then per probe figure, when both runs were probed. */
  machineDrift?: Partial<Probe>;
}
export const THRESHOLD: number;
export function byBlock(results: Results): Results;
export function readBaseline(file: string): Baseline;
export function compare(baseline: Baseline, results: Results, machine: string, probe?: Probe): Row[];
export function regressionText(rows: Row[], sizeName: (n: number) => string): string;
export function recordBaseline(file: string, baseline: Baseline, results: Results, at: { date: string; machine: string; probe?: Probe }): void;
