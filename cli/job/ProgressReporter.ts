import type { RowStatus } from "spellrun";
import { TerminalProgressLine, type ProgressFigures } from "./TerminalProgressLine.js";

/**
 * Where a bulk job stands: rows written to the output, rows finished but waiting for earlier
 * rows (the output keeps input order), counts per status, runs still going.
 *
 * ## Example
 * ```ts
 * const progress: JobProgress = { written: 500, total: 1000, counts: { success: 500 }, running: 500 };
 * ```
 */
export interface JobProgress {
  written: number;
  total: number | undefined;
  counts: Partial<Record<RowStatus, number>>;
  /** Rows without a result yet, `starting` included (never those refused). */
  running: number;
  /** Of `running`, rows whose bulkStart has no answer yet: not started at the service. */
  starting?: number;
  /** Rows whose start the service refused: never started. */
  refused?: number;
  /** Why they were refused, in a few words (`HTTP 413, too large`), once known. */
  refusal?: string;
}

/**
 * Shows a job's progress on stderr: a progress line (done/total, per-state counts, rate, ETA)
 * when stderr is a terminal, one plain line every `everyMs` otherwise, nothing with `quiet`.
 * The caller decides how often to call `update`; the bar throttles its own redraws.
 *
 * ## Example
 * ```ts
 * const reporter = new ProgressReporter({ quiet: false, everyMs: 10_000 });
 * reporter.update(progress);
 * reporter.stop(progress);
 * ```
 */
export class ProgressReporter {
  private bar: TerminalProgressLine | undefined;
  private lastLineAt = 0;
  private readonly startedAt = Date.now();
  /** Rows already written when this process started (resume), left out of the rate. */
  private firstWritten: number | undefined;

  /**
   * @param options `quiet`: nothing; `everyMs`: the plain lines' interval; `tty`: stderr is a
   *   terminal (default: asked); `sharesTerminal`: the rows go to the same terminal (`-o -`), where
   *   a bar would be glued to them: plain lines then
   */
  constructor(
    private readonly options: {
      quiet: boolean;
      everyMs: number;
      tty?: boolean;
      sharesTerminal?: boolean;
    }
  ) {}

  /**
   * Shows the latest figures.
   * @param progress where the job stands
   */
  update(progress: JobProgress): void {
    this.firstWritten ??= progress.written;
    if (this.options.quiet) return;
    if ((this.options.tty ?? process.stderr.isTTY) && this.options.sharesTerminal !== true) {
      this.updateBar(progress);
      return;
    }
    const now = Date.now();
    if (now - this.lastLineAt < this.options.everyMs) return;
    this.lastLineAt = now;
    process.stderr.write(`spellrun: ${this.describe(progress, now - this.startedAt)}\n`);
  }

  /**
   * Prints one line of news (such as "cancelling…") on a line of its own, even while the bar
   * shows: the bar is cleared first and drawn again below at its next update.
   * @param text the line, without a line break
   */
  note(text: string): void {
    if (this.bar) this.bar.note(text);
    else process.stderr.write(`\n${text}\n`);
  }

  /**
   * Removes the bar and prints the final line (unless quiet, or `silent`: after a closed output
   * pipe, which ends a pipeline normally and prints nothing).
   * @param progress the final figures
   * @param silent print no final line
   */
  stop(progress: JobProgress, silent = false): void {
    if (this.bar) {
      this.bar.stop();
      this.bar = undefined;
    }
    if (!this.options.quiet && !silent) {
      process.stderr.write(`spellrun: ${this.describe(progress, Date.now() - this.startedAt)}\n`);
    }
  }

  /** Shows the cursor again if the bar hid it (any way out: a second Ctrl-C, an exit). */
  restore(): void {
    this.bar?.restore();
  }

  private updateBar(progress: JobProgress): void {
    this.bar ??= new TerminalProgressLine(process.stderr);
    this.bar.update(this.figures(progress));
  }

  private figures(progress: JobProgress): ProgressFigures {
    const seconds = Math.max((Date.now() - this.startedAt) / 1000, 0.001);
    return {
      written: progress.written,
      total: progress.total,
      success: progress.counts.success ?? 0,
      failed: failedOf(progress.counts),
      running: progress.running - (progress.starting ?? 0),
      starting: progress.starting ?? 0,
      refused: progress.refused ?? 0,
      rowsPerSecond: (progress.written - (this.firstWritten ?? 0)) / seconds,
    };
  }

  private describe(progress: JobProgress, elapsedMs: number): string {
    const of = progress.total === undefined ? "" : `/${progress.total}`;
    const counts = Object.entries(progress.counts)
      .filter(([, count]) => (count ?? 0) > 0)
      .map(([status, count]) => `${status} ${count}`)
      .join(", ");
    const rate = Math.round(
      (progress.written - (this.firstWritten ?? 0)) / Math.max(elapsedMs / 1000, 0.001)
    );
    const starting = progress.starting ?? 0;
    const refused = progress.refused ?? 0;
    // Rows are in flight only once the service has taken their bulk run.
    const notRunning =
      (starting > 0 ? `, ${starting} starting (bulkStart sent, no answer yet)` : "") +
      (refused > 0
        ? `, ${refused} not started: the service refused them${progress.refusal ? ` (${progress.refusal})` : ""}`
        : "");
    return `${progress.written}${of} rows written${counts ? ` (${counts})` : ""}, ${progress.running - starting} in flight${notRunning}, ${rate} rows/s, ${Math.round(elapsedMs / 1000)} s`;
  }
}

function failedOf(counts: Partial<Record<RowStatus, number>>): number {
  return (
    (counts.failure ?? 0) + (counts.error ?? 0) + (counts.cancelled ?? 0) + (counts.unknown ?? 0)
  );
}
