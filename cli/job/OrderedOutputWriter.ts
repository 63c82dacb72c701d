import type { FinishedJobRow, ResultWriter } from "spellrun";
import { formatHeader, formatRows, type FinishedRow } from "./formatRows.js";
import type { JobRecord, JournalRecord } from "./JournalRecord.js";
import type { Journal } from "./Journal.js";
import type { JobRow } from "./JobRow.js";
import type { OutputFile } from "../table/OutputFile.js";
import { chooseOutputColumns, type OutputColumns } from "../table/OutputColumns.js";

/** Windows a layout waits for a successful row before it settles for the outputs it saw. */
const LAYOUT_WAIT_WINDOWS = 4;

/**
 * The command line's result writer: the output file in input order (the engine hands rows over
 * in order). The CSV columns are fixed by the first window's successful outputs (or `--columns`;
 * up to four windows when the first has no success), so rows wait until then; the header's
 * layout goes to the journal. A kept row of a
 * retry is copied as the earlier output wrote it.
 *
 * ## Example
 * ```ts
 * const writer = new OrderedOutputWriter({ job, output, journal, columns: () => table.columns() });
 * ```
 */
export class OrderedOutputWriter implements ResultWriter<JobRow> {
  private layout: OutputColumns | undefined;
  private waiting: FinishedJobRow<JobRow>[] = [];

  constructor(
    private readonly options: {
      job: JobRecord;
      output: OutputFile;
      journal: Journal | undefined;
      /** The input's columns (known once its header was read). */
      columns: () => string[];
      /** The layout of a header already written (resume, retry). */
      layout?: OutputColumns;
      /** Write the header of `layout` first (a retry's new output). */
      writeHeader?: boolean;
    }
  ) {
    this.layout = options.layout;
    if (this.layout && options.writeHeader) this.writeHeader(this.layout);
  }

  /** @param rows the next rows in input order */
  write(rows: readonly FinishedJobRow<JobRow>[]): void {
    if (!this.layout) {
      this.waiting.push(...rows);
      const { chunkSize, columns } = this.options.job;
      const waited = this.waiting.length;
      // The columns come from successful outputs: a first window without one (all failed or
      // expired) waits for a few more before settling for none.
      const sampled = this.waiting.some((row) => row.status === "success");
      if (
        !columns &&
        (waited < chunkSize || (!sampled && waited < chunkSize * LAYOUT_WAIT_WINDOWS))
      ) {
        return;
      }
      this.chooseLayout();
      return;
    }
    this.append(rows);
  }

  /**
   * Whether rows handed over are still held back for the layout (not in the file yet): a written
   * mark must not vouch for them (see `JournalCheckpointStore`).
   */
  holdsRows(): boolean {
    return !this.layout && this.waiting.length > 0;
  }

  /** Flushes the output to disk. */
  flush(): void {
    this.options.output.sync();
  }

  /**
   * Writes the header of an input without rows (or of a job stopped before its layout settled)
   * and the rows held for it; those rows get their written mark here, after they reached the
   * file (the engine's last mark came before, while they were held, and was not recorded).
   */
  end(): void {
    if (!this.layout) {
      const held = this.waiting;
      this.chooseLayout();
      this.options.output.sync();
      if (held.length > 0) this.options.journal?.append(this.heldMark(held));
    }
    this.options.output.sync();
  }

  /** The written mark of the rows held before the layout: the first rows of the file. */
  private heldMark(held: readonly FinishedJobRow<JobRow>[]): JournalRecord {
    const counts: Partial<Record<FinishedJobRow<JobRow>["status"], number>> = {};
    for (const row of held) counts[row.status] = (counts[row.status] ?? 0) + 1;
    return {
      type: "written",
      rows: held.length,
      bytes: this.options.output.bytes,
      counts,
    };
  }

  private chooseLayout(): void {
    const samples = this.waiting
      .filter((row) => row.status === "success" && !row.row.kept)
      .map((row) => row.outputs);
    const layout = chooseOutputColumns(this.options.columns(), samples, this.options.job.columns);
    this.writeHeader(layout);
    const waiting = this.waiting;
    this.waiting = [];
    this.append(waiting);
  }

  private writeHeader(layout: OutputColumns): void {
    const { output, journal, job } = this.options;
    this.layout = layout;
    output.write(formatHeader(layout, { format: job.outputFormat, csvGuard: job.csvGuard }));
    output.sync();
    journal?.append({ type: "layout", layout, headerBytes: output.bytes });
  }

  private append(rows: readonly FinishedJobRow<JobRow>[]): void {
    const { output, job } = this.options;
    const options = { format: job.outputFormat, csvGuard: job.csvGuard };
    let fresh: FinishedRow[] = [];
    const flushFresh = () => {
      if (fresh.length > 0) output.write(formatRows(fresh, this.layout as OutputColumns, options));
      fresh = [];
    };
    for (const row of rows) {
      if (row.row.kept) {
        flushFresh();
        output.write(row.row.kept.raw);
      } else {
        fresh.push({ values: row.row.values, status: row.status, outputs: row.outputs });
      }
    }
    flushFresh();
  }
}
