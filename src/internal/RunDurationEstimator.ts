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
/** How wide a caller's own `expectedDurationMs` is taken to be. */
const CALLER_MARGIN = 0.15;

/**
 * Learns, per spell, how long its runs take, from runs this client watched finish. Keeps the
 * last few durations of each spell (bounded memory: `MAX_SPELLS` spells, `SAMPLES_PER_SPELL`
 * each) and turns them into an `ExpectedEnd` window: the observed range, widened by a margin
 * that shrinks as runs accumulate.
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
    const samples = this.samplesBySpell.get(spellId);
    if (!samples || samples.length === 0) return undefined;
    const margin = BASE_MARGIN + FIRST_RUNS_MARGIN / samples.length;
    return {
      lowMs: Math.max(0, Math.min(...samples) * (1 - margin) - MARGIN_MS),
      highMs: Math.max(...samples) * (1 + margin) + MARGIN_MS,
    };
  }
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
