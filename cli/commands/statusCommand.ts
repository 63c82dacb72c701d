import { RETRYABLE_STATUSES } from "spellrun";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { Journal } from "../job/Journal.js";
import { replayJournal, unwrittenWindows } from "../job/replayJournal.js";
import { commandAsRun } from "./commandAsRun.js";

/**
 * `spellrun status <journal>`: what a bulk job has done, from its journal alone (no service
 * call, no key), and the command that comes next. Exit code 0 when the job is complete, 1
 * otherwise.
 *
 * ## Example
 * ```ts
 * process.exitCode = statusCommand("out.csv.journal");
 * ```
 * @param journalPath the journal file
 * @return the exit code
 */
export function statusCommand(journalPath: string): ExitCode {
  const state = replayJournal(Journal.read(journalPath).records);
  const { job } = state;
  const windows = [...state.windows.values()];
  const submitted = windows.reduce((sum, window) => sum + window.count, 0);
  const unrecorded = windows.filter((window) => window.groupId === undefined);
  const total = job.total === undefined ? "" : ` of ${job.total}`;
  const startedNothing =
    state.outcome !== undefined && state.writtenRows === 0 && unwrittenWindows(state).length === 0;
  const lines = [
    `spell      ${job.spellId}`,
    `input      ${job.input}`,
    `output     ${job.output}`,
    `rows       ${state.writtenRows}${total} written; ${submitted} submitted in ${windows.length} bulk runs of up to ${job.chunkSize}`,
    `bulk runs  ${windows.length - unrecorded.length} with a recorded id` +
      (unrecorded.length > 0
        ? `, ${unrecorded.length} submitted with no recorded id (${unrecorded.reduce((sum, window) => sum + window.count, 0)} rows: unknown unless resumed with --rerun-unknown)`
        : ""),
    `statuses   ${
      Object.entries(state.counts)
        .map(([status, count]) => `${status} ${count}`)
        .join(", ") || "none written yet"
    }`,
    `state      ${state.outcome ?? "stopped without an end record (killed?)"}`,
  ];
  const retryable = RETRYABLE_STATUSES.reduce((sum, s) => sum + (state.counts[s] ?? 0), 0);
  if (startedNothing && state.outcome !== "complete") {
    lines.push(
      `next       nothing was started: correct the command and run it again (this journal does not block it)`
    );
  } else if (state.outcome !== "complete") {
    lines.push(`next       ${commandAsRun()} resume ${journalPath}`);
  } else if (retryable > 0) {
    lines.push(
      `next       ${commandAsRun()} retry ${journalPath} (runs the ${retryable} rows that did not succeed again)`
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return state.outcome === "complete" ? EXIT_CODES.success : EXIT_CODES.someRowsFailed;
}
