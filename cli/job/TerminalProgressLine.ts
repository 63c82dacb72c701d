/**
 * The figures one progress line shows.
 *
 * ## Example
 * ```ts
 * const figures: ProgressFigures = { written: 500, total: 1000, success: 490, failed: 10, running: 500, rowsPerSecond: 250 };
 * ```
 */
export interface ProgressFigures {
  written: number;
  /** Unknown while the input (stdin) is still being read. */
  total: number | undefined;
  success: number;
  /** Rows that ended failure, error, cancelled or unknown. */
  failed: number;
  /** Rows at the service without a result yet. */
  running: number;
  /** Rows whose bulkStart has no answer yet (not in `running`). */
  starting?: number;
  /** Rows whose start the service refused (not in `running`). */
  refused?: number;
  rowsPerSecond: number;
}

const BAR_WIDTH = 30;
/** Redraws at most five times a second: a terminal is slow, and the eye is slower. */
const REDRAW_MS = 200;
const HIDE_CURSOR = "\u001b[?25l";
const SHOW_CURSOR = "\u001b[?25h";
const CLEAR_TO_END = "\u001b[K";

/**
 * One line of progress, e.g.
 * `██████████░░░░░░░░░░ 500/1000 rows | ok 490 not ok 10 | in flight 500 | 250/s | ETA 2s`.
 * Without a total the bar is left out and the ETA is `?`.
 *
 * ## Example
 * ```ts
 * formatProgressLine({ written: 1, total: 2, success: 1, failed: 0, running: 1, rowsPerSecond: 1 });
 * ```
 * @param figures what to show
 * @return the line, without a line break
 */
export function formatProgressLine(figures: ProgressFigures): string {
  const { written, total, success, failed, running, rowsPerSecond } = figures;
  const filled =
    total === undefined || total === 0
      ? 0
      : Math.min(BAR_WIDTH, Math.floor((written / total) * BAR_WIDTH));
  const bar = total === undefined ? "" : `${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)} `;
  const rate = Math.round(rowsPerSecond);
  const eta =
    total === undefined || rate <= 0 ? "?" : formatSeconds(Math.ceil((total - written) / rate));
  const starting = figures.starting ? ` | starting ${figures.starting}` : "";
  const refused = figures.refused ? ` | refused ${figures.refused}` : "";
  return (
    `${bar}${written}/${total ?? "?"} rows | ok ${success} not ok ${failed} | ` +
    `in flight ${running}${starting}${refused} | ${rate}/s | ETA ${eta}`
  );
}

/**
 * A progress line redrawn in place on a terminal (carriage return, clear to the end), at most
 * every 200 ms, with the cursor hidden while it shows. It replaces a progress-bar package: the
 * command line needs one line, and that package brought five more into every installation of
 * the library.
 *
 * ## Example
 * ```ts
 * const line = new TerminalProgressLine(process.stderr);
 * line.update(figures);
 * line.stop(figures);
 * ```
 */
export class TerminalProgressLine {
  private lastDrawAt = -Infinity;
  private shown = false;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly now: () => number = Date.now
  ) {}

  /**
   * Redraws the line, unless it was drawn less than 200 ms ago.
   * @param figures what to show
   */
  update(figures: ProgressFigures): void {
    const now = this.now();
    if (now - this.lastDrawAt < REDRAW_MS) return;
    this.lastDrawAt = now;
    this.draw(figures);
  }

  /**
   * Clears the bar's line and shows the cursor again: what follows (the final summary line, the
   * rows of a pipe closed, a message after Ctrl-C) starts on a clean line, and no stale ETA stays.
   */
  stop(): void {
    this.clear();
  }

  /**
   * Clears the line and shows the cursor again, when the line is shown (an exit in its middle,
   * a second Ctrl-C): no bar with its ETA is left on the terminal.
   */
  restore(): void {
    if (!this.shown) return;
    this.clear();
  }

  /**
   * Writes a line of news where the progress line was (cleared first, with whatever the
   * terminal echoed into it, such as `^C`); the next `update` draws the progress below it.
   * @param text the line, without a line break
   */
  note(text: string): void {
    this.stream.write(`\r${CLEAR_TO_END}${text}\n`);
    this.lastDrawAt = -Infinity;
  }

  private clear(): void {
    this.stream.write(`\r${CLEAR_TO_END}${SHOW_CURSOR}`);
    this.shown = false;
  }

  private draw(figures: ProgressFigures): void {
    const prefix = this.shown ? "" : HIDE_CURSOR;
    this.shown = true;
    this.stream.write(`${prefix}\r ${formatProgressLine(figures)}${CLEAR_TO_END}`);
  }
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}
