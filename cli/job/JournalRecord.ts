import type { RowStatus } from "./formatRows.js";
import type { InputMapping } from "../table/InputMapping.js";
import type { OutputLayout } from "../table/OutputLayout.js";
import type { TableFormat } from "../table/tableFormat.js";

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
}

/**
 * One line of a journal. Written in this order for a window: `intent` (before its bulkStart is
 * sent), `group` (as soon as the service names the bulk run), and `written` records (the output
 * file holds `rows` rows in `bytes` bytes, flushed to disk before the record).
 *
 * ## Example
 * ```ts
 * journal.append({ type: "intent", window: 3, firstRow: 1500, count: 500 });
 * ```
 */
export type JournalRecord =
  | JobRecord
  | { type: "layout"; layout: OutputLayout; headerBytes: number }
  | { type: "intent"; window: number; firstRow: number; count: number }
  | { type: "group"; window: number; groupId: string }
  /** The service refused the window's bulkStart (HTTP 4xx): nothing was started, resume may send it. */
  | { type: "refused"; window: number }
  | {
      type: "written";
      rows: number;
      bytes: number;
      /** Statuses of the `rows` rows written so far (the whole job, across resumes). */
      counts?: Partial<Record<RowStatus, number>>;
    }
  | { type: "end"; outcome: JobOutcome; rows: number };

/**
 * How a job run ended, as the last journal record says.
 *
 * ## Example
 * ```ts
 * const outcome: JobOutcome = "interrupted";
 * ```
 */
export type JobOutcome = "complete" | "interrupted" | "input-error" | "service-error";
