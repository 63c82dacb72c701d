import type { CheckpointRecord, JobOutcome } from "spellrun";
import type { InputMapping } from "../table/InputMapping.js";
import type { InputReading } from "../table/InputReading.js";
import type { OutputColumns } from "../table/OutputColumns.js";
import type { TableFormat } from "../table/tableFormat.js";
import type { InputFingerprint } from "./InputFingerprint.js";

/**
 * The first record of a journal: everything `spellrun resume` needs to continue the job, and no
 * secret (the API key is read again from `SPELL_API_KEY` or `--api-key-file`).
 *
 * ## Example
 * ```ts
 * const job: JobRecord = { type: "job", version: 1, spellId: "echo", input: "/data/in.csv", ... };
 * ```
 */
export interface JobRecord {
  type: "job";
  version: 1;
  spellId: string;
  /** Absolute path of the input file. */
  input: string;
  inputFormat: TableFormat;
  /** How the input is read (`--encoding`, `--delimiter`, `--no-header-row`); absent: defaults. */
  reading?: InputReading;
  /** Absolute path of the output file. */
  output: string;
  outputFormat: TableFormat;
  /** Rows per window; window `w` holds rows `w * chunkSize` … and is one bulk run. */
  chunkSize: number;
  mapping: InputMapping;
  csvGuard: boolean;
  /** Output names chosen with `--columns`, if any. */
  columns?: string[];
  baseUrl: string;
  pollBaseUrl: string;
  authHeader: "authorization" | "x-api-key";
  /** Rows in the input, when counted before the start. */
  total?: number;
  /** The input file as the job began (absent for stdin): resume and retry refuse a changed one. */
  inputFingerprint?: InputFingerprint;
  /**
   * A `spellrun retry` job: the earlier output, kept under this path. Its rows that need no run
   * again are copied from it as they are; the others are run.
   */
  retryOf?: string;
  /** A `spellrun retry --rerun-unknown` job also runs the rows whose start may have happened. */
  retryUnknown?: boolean;
}

/**
 * One line of a journal: the job record, the output layout, and the records of the core's
 * bulk-job engine (`CheckpointRecord`: `intent` before a window's bulkStart is sent, `group` as
 * soon as the service names the bulk run, `refused`, `written` marks, `end`). A `written` record
 * of the journal also says how many bytes of the output hold those rows (flushed to disk first),
 * and an `end` record whether the job stopped at its budget.
 *
 * ## Example
 * ```ts
 * journal.append({ type: "intent", window: 3, firstRow: 1500, count: 500 });
 * ```
 */
export type JournalRecord =
  | JobRecord
  | { type: "layout"; layout: OutputColumns; headerBytes: number }
  | Exclude<CheckpointRecord, { type: "written" } | { type: "end" }>
  | (Extract<CheckpointRecord, { type: "written" }> & { bytes: number })
  | (Extract<CheckpointRecord, { type: "end" }> & {
      /** `budget`: a job read from stdin stopped at its `--max-runs` (outcome `input-error`). */
      stop?: "budget";
      /**
       * With `stop: "budget"`: the rows stdin held at least (the stop read the row past the
       * budget). A resume refuses a stdin with fewer: it would end the job short.
       */
      inputRowsAtLeast?: number;
    });

export type { JobOutcome };
