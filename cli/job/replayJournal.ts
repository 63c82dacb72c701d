import { replayCheckpoint, type Checkpoint } from "spellrun";
import { CliError } from "../errors/CliError.js";
import type { JobRecord, JournalRecord } from "./JournalRecord.js";
import type { OutputColumns } from "../table/OutputColumns.js";

/**
 * What a journal says about its job: the engine's checkpoint (replayed by the core's
 * `replayCheckpoint`) and what only the command line keeps (job, layout, output bytes).
 *
 * ## Example
 * ```ts
 * const state: JournalState = replayJournal(Journal.read(path).records);
 * console.log(`${state.writtenRows} rows written`);
 * ```
 */
export interface JournalState extends Checkpoint {
  job: JobRecord;
  layout?: OutputColumns;
  /** Bytes of the output the journal vouches for (header included). */
  writtenBytes: number;
  /** The job (read from stdin) stopped at its `--max-runs` budget. */
  stoppedAtBudget?: boolean;
  /**
   * Rows the job's input is known to hold at least: a stop at the budget read the row past it
   * (its end record's `inputRowsAtLeast`). A resume's stdin with fewer would end the job short.
   */
  knownRows: number;
}

/**
 * Replays journal records into the job's state. Later records win (a window re-submitted with
 * `--rerun-unknown` has a second intent).
 *
 * ## Example
 * ```ts
 * const { writtenRows, windows } = replayJournal(records);
 * ```
 * @param records the journal's records, the job record first
 * @return the state
 */
export function replayJournal(records: JournalRecord[]): JournalState {
  const [first] = records;
  if (!first || first.type !== "job") throw new CliError("The journal has no job record");
  const state: JournalState = {
    job: first,
    writtenBytes: 0,
    knownRows: 0,
    ...replayCheckpoint(records),
  };
  let sentSoFar = 0;
  for (const record of records) {
    if (record.type === "intent") {
      sentSoFar = Math.max(sentSoFar, record.firstRow + record.count);
    } else if (record.type === "layout") {
      state.layout = record.layout;
      state.writtenBytes = Math.max(state.writtenBytes, record.headerBytes);
    } else if (record.type === "written") {
      state.writtenBytes = record.bytes;
    } else if (record.type === "end") {
      state.stoppedAtBudget = record.stop === "budget";
      // Journals of earlier versions lack the count: the row past those sent by then.
      if (state.stoppedAtBudget)
        state.knownRows = Math.max(state.knownRows, record.inputRowsAtLeast ?? sentSoFar + 1);
    }
  }
  return state;
}

/**
 * Windows of a journal whose rows are not all written: submitted, and maybe still running at
 * the service.
 *
 * ## Example
 * ```ts
 * if (unwrittenWindows(state).length === 0) console.log("nothing is left at the service");
 * ```
 * @param state the replayed journal
 * @return the windows' indexes
 */
export function unwrittenWindows(state: JournalState): number[] {
  return [...state.windows.entries()]
    .filter(([index, window]) => index * state.job.chunkSize + window.count > state.writtenRows)
    .map(([index]) => index);
}
