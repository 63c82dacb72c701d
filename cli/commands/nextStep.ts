import path from "node:path";
import { commandAsRun } from "../errors/commandAsRun.js";
import type { ConnectionFlags } from "./resolveConnection.js";
import { DEFAULT_MAX_RUNS } from "./runBudget.js";
import { inputOutsideJournalFolder } from "../job/trustedJob.js";
import type { JobRecord } from "../job/JournalRecord.js";
import { newRunsOnResume } from "../job/newRuns.js";
import type { JournalState } from "../job/replayJournal.js";

/**
 * What a printed next step must carry so that it works when run exactly as printed.
 *
 * ## Example
 * ```ts
 * const step: NextStep = { verb: "resume", journalPath: "out/out.csv.journal", job, newRuns: 1500 };
 * ```
 */
export interface NextStep {
  verb: "resume" | "retry";
  journalPath: string;
  /** The job with its trusted paths (its input as the user named it last). */
  job: Pick<JobRecord, "input">;
  /** The most runs the step can start (adds `--max-runs` above the default budget). */
  newRuns?: number;
  /** The connection flags this command was given (repeated: the environment may lack them). */
  connection?: ConnectionFlags;
  /** Further flags, such as `--rerun-unknown`. */
  extra?: string[];
}

/**
 * The command line of a next step (`spellrun resume …`, `spellrun retry …`) with every flag it
 * needs: `--input` when the input lies outside the journal's folder (the journal's own rule,
 * see `trustedJob`), `--max-runs` when it would start more runs than the default budget, and the
 * service flags this command was given on its own command line (never the key, only
 * `--api-key-file`). Words are quoted for a POSIX shell.
 *
 * ## Example
 * ```ts
 * nextStepCommand({ verb: "resume", journalPath: "out/o.csv.journal", job: { input: "/d/in.csv" } });
 * // "spellrun resume out/o.csv.journal --input /d/in.csv"
 * ```
 * @param step the step
 * @return the command, ready to paste
 */
export function nextStepCommand(step: NextStep): string {
  const words = [step.verb, step.journalPath];
  const { input } = step.job;
  if (input !== "-" && inputOutsideJournalFolder(step.journalPath, input)) {
    words.push("--input", path.resolve(input));
  }
  if (step.newRuns !== undefined && step.newRuns > DEFAULT_MAX_RUNS) {
    words.push("--max-runs", String(step.newRuns));
  }
  const flags = step.connection ?? {};
  if (flags.baseUrl !== undefined) words.push("--base-url", flags.baseUrl);
  if (flags.pollBaseUrl !== undefined) words.push("--poll-base-url", flags.pollBaseUrl);
  if (flags.authHeader !== undefined) words.push("--auth-header", flags.authHeader);
  if (flags.apiKeyFile !== undefined) words.push("--api-key-file", path.resolve(flags.apiKeyFile));
  words.push(...(step.extra ?? []));
  return `${commandAsRun()} ${words.map(shellQuote).join(" ")}`;
}

/**
 * A word quoted for a POSIX shell when it needs it.
 *
 * ## Example
 * ```ts
 * shellQuote("my file.csv"); // "'my file.csv'"
 * ```
 * @param word the word
 * @return the word as a shell reads it back
 */
export function shellQuote(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * The `spellrun resume …` that continues a journal's unfinished job, as a message that refuses
 * another command names it: with the `--max-runs` its rows never submitted need and
 * `--no-csv-guard` for a job begun without the guard, so that it works as printed.
 *
 * ## Example
 * ```ts
 * throw new UsageError(`continue it with "${resumeStepCommand(journalPath, state, job, flags)}"`);
 * ```
 * @param journalPath the journal
 * @param state the replayed journal
 * @param job the job, with its input as the user named it last
 * @param connection the connection flags this command was given
 * @return the command, ready to paste
 */
export function resumeStepCommand(
  journalPath: string,
  state: JournalState,
  job: Pick<JobRecord, "input" | "total" | "csvGuard">,
  connection?: ConnectionFlags
): string {
  return nextStepCommand({
    verb: "resume",
    journalPath,
    job,
    newRuns: newRunsOnResume(state, job.total ?? state.writtenRows, false),
    ...(connection ? { connection } : {}),
    extra: job.csvGuard ? [] : ["--no-csv-guard"],
  });
}
