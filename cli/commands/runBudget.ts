import { UsageError } from "../errors/UsageError.js";

/**
 * The runs one `spellrun bulk` may start unless `--max-runs` says more: the add-in's daily cap,
 * so that a mistyped file (a log instead of a list) never costs more than a day of careful use.
 *
 * ## Example
 * ```ts
 * checkRunBudget(1203, DEFAULT_MAX_RUNS); // throws UsageError
 * ```
 */
export const DEFAULT_MAX_RUNS = 1000;

/**
 * Refuses a job of more rows than `--max-runs`, before anything is sent.
 *
 * ## Example
 * ```ts
 * checkRunBudget(await countRows(input, format, mapping), maxRuns);
 * ```
 *
 * @param rows The rows of the input (each starts one run).
 * @param maxRuns The `--max-runs` value.
 * @throws UsageError naming both figures and the flag that allows the job.
 */
export function checkRunBudget(rows: number, maxRuns: number): void {
  if (rows > maxRuns) throw overBudget(`${rows} rows would start ${rows} runs`, maxRuns, rows);
}

/**
 * For stdin, whose rows cannot be counted first: the rows unchanged up to `maxRuns`; the row
 * after them throws, so the job ends before that row's bulk run is started (rows of earlier bulk
 * runs were sent; nothing beyond `maxRuns` ever is).
 *
 * ## Example
 * ```ts
 * const rows = limitRows(readInputRows("-", "csv").rows, maxRuns);
 * ```
 *
 * @param rows The input rows.
 * @param maxRuns The `--max-runs` value.
 * @return The same rows, refusing one past the budget.
 */
export async function* limitRows<T>(rows: AsyncIterable<T>, maxRuns: number): AsyncGenerator<T> {
  let count = 0;
  for await (const row of rows) {
    if (++count > maxRuns) {
      throw overBudget(`stdin has more than ${maxRuns} rows`, maxRuns, undefined);
    }
    yield row;
  }
}

function overBudget(what: string, maxRuns: number, rows: number | undefined): UsageError {
  return new UsageError(
    `${what}, more than --max-runs ${maxRuns}; nothing beyond that is started. Pass --max-runs ${rows ?? "<n>"} to allow it.`
  );
}
