import { RunBudgetError } from "../errors/RunBudgetError.js";
import { UsageError } from "../errors/UsageError.js";
import { terminalText } from "../errors/terminalText.js";

/**
 * The runs one `spellrun bulk`, `resume` or `retry` may start unless `--max-runs` says more: the add-in's daily cap,
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
 * @param rows The runs the command may start (a row each).
 * @param maxRuns The `--max-runs` value.
 * @param what How the message names them (default: "`rows` rows would start `rows` runs").
 * @throws UsageError naming both figures and the flag that allows the job.
 */
export function checkRunBudget(rows: number, maxRuns: number, what?: string): void {
  if (rows > maxRuns) {
    throw overBudget(what ?? `${rows} rows would start ${rows} runs`, maxRuns, rows);
  }
}

/**
 * Says on stderr, before the first start, how many new runs of which spell a command may start:
 * a command that pays never starts silently.
 *
 * ## Example
 * ```ts
 * announceRuns("resume", 900, "summarize");
 * // spellrun: resume: will start up to 900 new runs of spell 'summarize'
 * ```
 *
 * @param command The command (`bulk`, `resume`, `retry`).
 * @param runs The most new runs it may start (`undefined`: stdin, counted as it comes).
 * @param spellId The spell.
 * @param maxRuns The budget, named when the runs cannot be counted first.
 */
export function announceRuns(
  command: string,
  runs: number | undefined,
  spellId: string,
  maxRuns?: number
): void {
  const count = runs === undefined ? `up to ${maxRuns} (--max-runs)` : `up to ${runs}`;
  process.stderr.write(
    // The spell id may come from a journal: shown, never obeyed.
    `spellrun: ${command}: will start ${count} new runs of spell '${terminalText(spellId)}'\n`
  );
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
 * @param limit The rows let through (default `maxRuns`; a resume adds the rows already sent).
 * @param unsent The rows not sent yet, when known (a resume has read stdin whole): the message
 *   then names the `--max-runs` that would allow them.
 * @return The same rows, refusing one past the budget (`RunBudgetError`).
 */
export async function* limitRows<T>(
  rows: AsyncIterable<T>,
  maxRuns: number,
  limit = maxRuns,
  unsent?: number
): AsyncGenerator<T> {
  let count = 0;
  for await (const row of rows) {
    if (++count > limit) {
      throw new RunBudgetError(
        overBudgetMessage(
          limit === maxRuns
            ? `stdin has more than ${maxRuns} rows`
            : unsent === undefined
              ? `stdin has more than ${maxRuns} rows not sent yet`
              : `stdin has ${unsent} rows not sent yet`,
          maxRuns,
          unsent
        ),
        maxRuns
      );
    }
    yield row;
  }
}

function overBudget(what: string, maxRuns: number, rows: number | undefined): UsageError {
  return new UsageError(overBudgetMessage(what, maxRuns, rows));
}

function overBudgetMessage(what: string, maxRuns: number, rows: number | undefined): string {
  return `${what}, more than --max-runs ${maxRuns}; nothing beyond that is started. Pass --max-runs ${rows ?? "<n>"} to allow it.`;
}
