/**
 * Splits a task filter into its shape (what decides the SQL text: which filters are set, list
 * lengths, flags) and its values (bound parameters), so list, count and ready queries are built
 * and compiled once per shape instead of on every call (see prepared.ts).
 */
import type { TaskFilter } from '../../core/ports.js';
import { priorityRank } from '../../core/model/task.js';
import type { Slots } from './prepared.js';

/** Filter fields only the store sets: which half of the ready query, priorities already ranked. */
export type StoreFilter = TaskFilter & { readyPart?: 'fresh' | 'abandoned'; priorityRanks?: number[] };

export interface FilterShape {
  /** Rebuilds the filter with placeholders where the values were. */
  make(p: Slots): StoreFilter;
  /** The values, in placeholder order. */
  args: unknown[];
  key: string;
  toString(): string;
}

export function filterShape(f: StoreFilter, prefix = ''): FilterShape {
  const args: unknown[] = [];
  const keys: string[] = [prefix];
  const fill: Array<(out: StoreFilter, p: Slots) => void> = [];
  const list = <K extends keyof StoreFilter>(name: K, values: readonly unknown[] | undefined) => {
    if (values === undefined) return;
    const from = args.length;
    args.push(...values);
    keys.push(`${name}:${values.length}`);
    fill.push((out, p) => ((out as Record<string, unknown>)[name] = values.map((_, i) => p(from + i))));
  };
  const one = <K extends keyof StoreFilter>(name: K, value: unknown) => {
    if (value === undefined) return;
    if (value === null) {
      keys.push(`${name}:null`);
      fill.push((out) => ((out as Record<string, unknown>)[name] = null));
      return;
    }
    const at = args.length;
    args.push(value);
    keys.push(`${name}:?`);
    fill.push((out, p) => ((out as Record<string, unknown>)[name] = p(at)));
  };
  list('projectUids', f.projectUids);
  list('statuses', f.statuses);
  list('categories', f.categories);
  list('kinds', f.kinds);
  list('priorityRanks', f.priorityRanks ?? f.priorities?.map(priorityRank));
  list('labelsAny', f.labelsAny);
  list('labelsAll', f.labelsAll);
  list('substatuses', f.substatuses);
  one('assignee', f.assignee);
  one('slug', f.slug);
  one('parentUid', f.parentUid || undefined);
  one('updatedSince', f.updatedSince || undefined);
  const flags = { includeDone: f.includeDone, includeArchived: f.includeArchived, includeDeleted: f.includeDeleted, onlyDeleted: f.onlyDeleted, readyPart: f.readyPart };
  keys.push(JSON.stringify(flags));
  if (f.ready) {
    const now = args.length;
    args.push(f.ready.now);
    const actor = f.ready.actor ? args.push(f.ready.actor) - 1 : -1;
    const includeBacklog = f.ready.includeBacklog === true;
    keys.push(`ready:${actor >= 0}:${includeBacklog}`);
    fill.push((out, p) => (out.ready = { now: p(now), ...(actor >= 0 ? { actor: p(actor) } : {}), includeBacklog }));
  }
  const key = keys.join('|');
  return {
    args,
    key,
    toString: () => key,
    make(p) {
      const out: StoreFilter = { ...flags };
      for (const f of fill) f(out, p);
      return out;
    },
  };
}
