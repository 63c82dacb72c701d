import type { KnownWindow } from "./BulkJob.js";
import { CliError } from "../errors/CliError.js";
import type { JobOutcome, JobRecord, JournalRecord } from "./JournalRecord.js";
import type { RowStatus } from "./formatRows.js";
import type { OutputLayout } from "../table/OutputLayout.js";

/**
 * What a journal says about its job, replayed record by record.
 *
 * ## Example
 * ```ts
 * const state: JournalState = replayJournal(Journal.read(path).records);
 * console.log(`${state.writtenRows} rows written`);
 * ```
 */
export interface JournalState {
  job: JobRecord;
  layout?: OutputLayout;
  /** Bytes of the output the journal vouches for (header included). */
  writtenBytes: number;
  writtenRows: number;
  /** Statuses of the written rows. */
  counts: Partial<Record<RowStatus, number>>;
  /** Windows submitted (intent recorded), with their group ids when known. */
  windows: Map<number, KnownWindow>;
  /** The last `end` record's outcome; absent when the process died. */
  outcome?: JobOutcome;
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
    writtenRows: 0,
    counts: {},
    windows: new Map(),
  };
  for (const record of records) {
    switch (record.type) {
      case "layout":
        state.layout = record.layout;
        state.writtenBytes = Math.max(state.writtenBytes, record.headerBytes);
        break;
      case "intent":
        state.windows.set(record.window, { count: record.count });
        state.outcome = undefined;
        break;
      case "group": {
        const window = state.windows.get(record.window);
        if (window) window.groupId = record.groupId;
        break;
      }
      case "refused":
        state.windows.delete(record.window);
        break;
      case "written":
        state.writtenRows = record.rows;
        state.writtenBytes = record.bytes;
        state.counts = { ...record.counts };
        break;
      case "end":
        state.outcome = record.outcome;
        break;
      default:
        break;
    }
  }
  return state;
}
