import type { Observable } from "rxjs";

/** Everything an Observable did until it ended. */
export interface Collected<T> {
  values: T[];
  error?: unknown;
  completed: boolean;
}

/** Subscribes and resolves when the Observable completes or errors. */
export function collect<T>(source: Observable<T>): Promise<Collected<T>> {
  return new Promise((resolve) => {
    const values: T[] = [];
    source.subscribe({
      next: (value) => values.push(value),
      error: (error: unknown) => resolve({ values, error, completed: false }),
      complete: () => resolve({ values, completed: true }),
    });
  });
}

/** Resolves after `ms` of wall time. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Total requests of an emulator stats object. */
export function totalRequests(stats: { requests: Record<string, number> }): number {
  return Object.values(stats.requests).reduce((sum, count) => sum + count, 0);
}
