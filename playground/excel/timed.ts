/** Timing of the mock's own work. */
import type { MockWorkbookStats } from "./mockWorkbookTypes.js";

/** Runs mock work, adding its time to `stats.mockMs` (benchmarks subtract it). */
export function timed<T>(stats: MockWorkbookStats, work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    stats.mockMs += performance.now() - started;
  }
}
