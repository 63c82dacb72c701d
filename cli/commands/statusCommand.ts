import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { Journal } from "../job/Journal.js";
import { replayJournal } from "../job/replayJournal.js";
import { commandAsRun } from "./commandAsRun.js";

/**
 * `spellrun status <journal>`: what a bulk job has done, from its journal alone (no service
 * call, no key). Exit code 0 when the job is complete, 1 otherwise.
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
  if (state.outcome !== "complete")
    lines.push(`next       ${commandAsRun()} resume ${journalPath}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  return state.outcome === "complete" ? EXIT_CODES.success : EXIT_CODES.someRowsFailed;
}
