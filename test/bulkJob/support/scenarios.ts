import fc from "fast-check";
import type { StartFault } from "./FakeBulkService.js";

/** One row of the model: its place and a text (the spell's inputs are both). */
export interface ModelRow {
  id: number;
  text: string;
}

/** How a session (one process running the job) is given its rows. */
export type RowsGiven = "same" | "function" | "shifted" | "edited";

/** One process running the job, until it ends or is killed. */
export interface Session {
  /** Killed when it tries its `n`-th store record, or its `n`-th bulkStart. */
  kill?: { at: "record" | "start"; n: number };
  /** Faults of the service's next bulkStarts. */
  faults: (StartFault | undefined)[];
  rows: RowsGiven;
  /** Which row is edited, or how far the rows are shifted. */
  shift: number;
  /** Sends again windows that may have started (may pay twice: the user's explicit choice). */
  resend: boolean;
  /** A second worker resumes the same checkpoint at the same time. */
  twoWorkers: boolean;
}

/** A generated job and the sessions that run it. */
export interface Scenario {
  rowCount: number;
  windowSize: number;
  maxWindows: number;
  writeOrder: "input" | "finished";
  /** Runs per bulkStart: a window of more rows goes out as several chunks (none: one). */
  chunkSize?: number;
  sessions: Session[];
}

/** Scenarios: small jobs, kills at any record or start, faults, wrong rows, two workers. */
export const scenarios: fc.Arbitrary<Scenario> = fc.record({
  rowCount: fc.integer({ min: 1, max: 20 }),
  windowSize: fc.integer({ min: 1, max: 6 }),
  maxWindows: fc.integer({ min: 1, max: 3 }),
  writeOrder: fc.constantFrom("input" as const, "finished" as const),
  chunkSize: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  sessions: fc.array(
    fc.record({
      kill: fc.option(
        fc.record({
          at: fc.constantFrom("record" as const, "start" as const),
          n: fc.integer({ min: 1, max: 30 }),
        }),
        { nil: undefined }
      ),
      faults: fc.array(fc.constantFrom(undefined, "refuse" as const, "lose-answer" as const), {
        maxLength: 3,
      }),
      rows: fc.constantFrom(
        "same" as const,
        "function" as const,
        "shifted" as const,
        "edited" as const
      ),
      shift: fc.integer({ min: 1, max: 19 }),
      // Rare: the user's explicit choice to pay twice.
      resend: fc.integer({ min: 0, max: 7 }).map((draw) => draw === 0),
      twoWorkers: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 }
  ),
});
