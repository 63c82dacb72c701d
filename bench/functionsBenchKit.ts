/**
 * What the two custom-functions benchmarks share (bench/functions.ts in Node,
 * bench/functionsBrowser.ts in headless Chromium): their command-line options, the median of
 * rounds, and the table of scenarios with each one's ratio to the `client.bulk` baseline.
 */

/**
 * The positive number after `--<name>` on the command line, else `fallback`.
 *
 * ## Example
 * ```ts
 * const rounds = option("rounds", 5); // npx tsx bench/functions.ts --rounds 9
 * ```
 */
function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** The options both benchmarks take, and the client's request limit they both use. */
export interface FunctionsBenchOptions {
  /** `--time-scale`: the emulator's speed-up of its spells' durations. @default 0.1 */
  timeScale: number;
  /** `--calls`: formulas of the sheet. */
  calls: number;
  /** `--distinct`: distinct inputs among them, and the baseline's bulk size. @default 1000 */
  distinct: number;
  /** `--rounds`: measured rounds, each over inputs of its own. @default 5 */
  rounds: number;
  /** `maxInFlight` of the add-in's settings and of the baseline's client. */
  maxInFlight: number;
}

/**
 * Reads the benchmark's options from the command line; only the sheet's size differs by default
 * between the two (10,000 calls in Node, 1,000 in Chromium).
 *
 * ## Example
 * ```ts
 * const { calls, distinct, rounds } = functionsBenchOptions({ calls: 10_000 });
 * ```
 */
export function functionsBenchOptions(defaults: { calls: number }): FunctionsBenchOptions {
  return {
    timeScale: option("time-scale", 0.1),
    calls: option("calls", defaults.calls),
    distinct: option("distinct", 1_000),
    rounds: option("rounds", 5),
    maxInFlight: 8,
  };
}

/**
 * The median: one cold sample on a shared 2-core machine varies by ±30%, so rounds are reported
 * by their median.
 *
 * ## Example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A count shown before the wall time: its heading and width. */
export interface CountColumn {
  heading: string;
  width: number;
}

/** One line of the table. */
export interface ScenarioRow {
  scenario: string;
  /** One figure per `CountColumn`, in their order. */
  counts: readonly number[];
  /** One wall time per round. */
  ms: readonly number[];
}

/**
 * Prints the table: scenario, the counts, the median wall time, its ratio to `baselineMs`, and
 * the rounds' wall times (listed when `listRounds` says so for the row).
 *
 * ## Example
 * ```ts
 * printScenarioTable([{ heading: "requests", width: 9 }], rows, median(bulkMs), () => true);
 * ```
 */
export function printScenarioTable(
  columns: readonly CountColumn[],
  rows: readonly ScenarioRow[],
  baselineMs: number,
  listRounds: (row: ScenarioRow) => boolean
): void {
  console.log(
    [
      "scenario".padEnd(52),
      ...columns.map((column) => column.heading.padStart(column.width)),
      "wall ms".padStart(9),
      "vs bulk".padStart(8),
      "  rounds (ms)",
    ].join(" ")
  );
  for (const row of rows) {
    console.log(
      [
        row.scenario.padEnd(52),
        ...columns.map((column, index) => String(row.counts[index]).padStart(column.width)),
        median(row.ms).toFixed(0).padStart(9),
        `${(median(row.ms) / baselineMs).toFixed(2)}x`.padStart(8),
        listRounds(row) ? `  ${row.ms.map((ms) => ms.toFixed(0)).join(", ")}` : "",
      ].join(" ")
    );
  }
}
