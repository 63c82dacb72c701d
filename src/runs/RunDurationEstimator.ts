import type { ExpectedEnd } from "../operators/expectedEndSchedule.js";

/** Durations kept per spell: enough to see its spread, few enough to follow a change. */
const SAMPLES_PER_SPELL = 8;
/** Spells remembered per client; the least recently finished is forgotten first. */
const MAX_SPELLS = 500;
/** Relative margin around the observed range: wide after one run, narrower with more. */
const BASE_MARGIN = 0.05;
const FIRST_RUNS_MARGIN = 0.15;
/** Absolute margin, for the request round trips in every measured duration. */
const MARGIN_MS = 50;
/**
 * With 3 runs or more, a duration over 3× (or under a third of) the median is an outlier (a run
 * queued at the service, a cached answer): it does not widen the window of the runs after it.
 */
const OUTLIER_FACTOR = 3;
/** How wide a caller's own `expectedDurationMs` is taken to be. */
const CALLER_MARGIN = 0.15;

/**
 * Learns, per spell, how long its runs take, from runs this client watched finish. Keeps the
 * last few durations of each spell (bounded memory: `MAX_SPELLS` spells, `SAMPLES_PER_SPELL`
 * each) and turns them into an `ExpectedEnd` window: the observed range (outliers left out),
 * widened by a margin that shrinks as runs accumulate.
 *
 * ## Example
 * ```ts
 * const durations = new RunDurationEstimator();
 * durations.record("summarize", 3000);
 * durations.expectedEnd("summarize"); // { lowMs: 2350, highMs: 3650 }
 * ```
 * @internal
 */
export class RunDurationEstimator {
  private readonly samplesBySpell = new Map<string, number[]>();

  /**
   * Remembers one finished run of `spellId`.
   *
   * @param spellId the spell
   * @param durationMs from the start's answer to the run's end, as polling saw it
   */
  record(spellId: string, durationMs: number): void {
    if (!Number.isFinite(durationMs) || durationMs < 0) return;
    const samples = this.samplesBySpell.get(spellId) ?? [];
    // Re-inserting keeps the Map in least-recently-finished order for eviction.
    this.samplesBySpell.delete(spellId);
    this.samplesBySpell.set(spellId, [...samples, durationMs].slice(-SAMPLES_PER_SPELL));
    if (this.samplesBySpell.size > MAX_SPELLS) {
      this.samplesBySpell.delete(this.samplesBySpell.keys().next().value as string);
    }
  }

  /**
   * Where the next run of `spellId` should end, or undefined for a spell never seen finishing.
   *
   * @param spellId the spell
   * @return the expected window
   */
  expectedEnd(spellId: string): ExpectedEnd | undefined {
    const all = this.samplesBySpell.get(spellId);
    if (!all || all.length === 0) return undefined;
    const samples = all.length >= 3 ? withoutOutliers(all) : all;
    const margin = BASE_MARGIN + FIRST_RUNS_MARGIN / samples.length;
    return {
      lowMs: Math.max(0, Math.min(...samples) * (1 - margin) - MARGIN_MS),
      highMs: Math.max(...samples) * (1 + margin) + MARGIN_MS,
    };
  }
}

function withoutOutliers(samples: number[]): number[] {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  return samples.filter(
    (sample) => sample <= median * OUTLIER_FACTOR && sample >= median / OUTLIER_FACTOR
  );
}

/**
 * The window around a duration the caller expects (`RunOptions.expectedDurationMs`): ±15 %.
 *
 * ## Example
 * ```ts
 * expectedEndAround(10_000); // { lowMs: 8500, highMs: 11500 }
 * ```
 * @param durationMs the expected duration
 * @return the window
 * @internal
 */
export function expectedEndAround(durationMs: number): ExpectedEnd {
  return { lowMs: durationMs * (1 - CALLER_MARGIN), highMs: durationMs * (1 + CALLER_MARGIN) };
}
