/** A minimal observable for the board's state: components subscribe and re-render when it changes. */
import { useEffect, useReducer } from 'preact/hooks';

export class Observable {
  private listeners = new Set<() => void>();
  private scheduled = false;

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Coalesces the changes of one task (a batch of events) into one render. */
  changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      for (const fn of this.listeners) fn();
    });
  }
}

/** Re-renders the component whenever `obs` changes. */
export function useObservable(obs: Observable): void {
  const [, bump] = useReducer((n: number, _: void) => n + 1, 0);
  useEffect(() => obs.subscribe(() => bump()), [obs]);
}
