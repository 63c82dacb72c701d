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

/**
 * Resolves once `condition` holds (checked every 10 ms); rejects naming `what` after
 * `timeoutMs`. For what a spec means to wait for (a request reaching the service, a line
 * logged): a pause guessed for an idle machine is too short on a loaded one.
 *
 * ## Example
 * ```ts
 * subscription.unsubscribe();
 * await waitUntil(() => emulator.stats.requests.cancelBulk >= 1, "the cancelBulk");
 * ```
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what = "the condition",
  timeoutMs = 10_000
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await pause(10);
  }
}
