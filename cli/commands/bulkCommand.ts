import { plural } from "./plural.js";
import { existsSync } from "node:fs";
import path from "node:path";
import { SpellClient } from "spellrun";
import { countRows } from "../table/countRows.js";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { parseInputMapping } from "../table/InputMapping.js";
import { parseInputReading } from "../table/InputReading.js";
import { Journal } from "../job/Journal.js";
import { JournalLock } from "../job/JournalLock.js";
import { checkJournalFile } from "../job/checkJournalFile.js";
import type { JobRecord } from "../job/JournalRecord.js";
import { OutputFile } from "../table/OutputFile.js";
import { parsePositiveInteger } from "./parsePositiveInteger.js";
import { jobRows } from "../job/jobRows.js";
import { replayJournal, unwrittenWindows } from "../job/replayJournal.js";
import { resolveConnection, type ConnectionFlags } from "./resolveConnection.js";
import { runBulkJob } from "./runBulkJob.js";
import { announceRuns, checkRunBudget, limitRows } from "./runBudget.js";
import { fingerprintInput } from "../job/InputFingerprint.js";
import { resumeStepCommand } from "./nextStep.js";
import { tableFormat, type TableFormat } from "../table/tableFormat.js";
import { UsageError } from "../errors/UsageError.js";

/**
 * The options of `spellrun bulk`, as commander parses them.
 *
 * ## Example
 * ```ts
 * const flags: BulkFlags = { output: "out.csv", chunkSize: "500", maxInFlight: "8", csvGuard: true, progressEvery: "10" };
 * ```
 */
export interface BulkFlags extends ConnectionFlags {
  output?: string;
  format?: string;
  map?: string[];
  only?: string;
  columns?: string;
  chunkSize: string;
  maxInFlight: string;
  maxRuns: string;
  /** The largest bulkStart body (`SpellClientOptions.maxBulkBodyBytes`). */
  maxBodyBytes?: string;
  dryRun?: boolean;
  quiet?: boolean;
  csvGuard: boolean;
  /** `--encoding`: the input's text encoding (else detected, see `decodeInput`). */
  encoding?: string;
  /** `--delimiter`: the input's cell delimiter. */
  delimiter?: string;
  /** `false` with `--no-header-row`. */
  headerRow?: boolean;
  /** Replace an existing output that this command did not write. */
  force?: boolean;
  progressEvery: string;
}

/**
 * `spellrun bulk <spell> <input> [-o output]`: one run per input row, in bulk runs of
 * `--chunk-size` rows, the output in input order with a journal next to it.
 *
 * ## Example
 * ```ts
 * process.exitCode = await bulkCommand("summarize", "rows.csv", flags);
 * ```
 * @param spellId the spell
 * @param input the input file, or `-`
 * @param flags the options
 * @return the exit code
 */
export async function bulkCommand(
  spellId: string,
  input: string,
  flags: BulkFlags
): Promise<ExitCode> {
  const inputFormat = tableFormat(input, input === "-" ? (flags.format ?? "csv") : flags.format);
  const outputPath = flags.output ?? defaultOutput(input, inputFormat);
  const outputFormat = tableFormat(outputPath, undefined, inputFormat);
  const mapping = parseInputMapping(flags.map, flags.only);
  const reading = parseInputReading(flags, inputFormat);
  const chunkSize = parsePositiveInteger(flags.chunkSize, "--chunk-size");
  const maxInFlight = parsePositiveInteger(flags.maxInFlight, "--max-in-flight");
  const maxRuns = parsePositiveInteger(flags.maxRuns, "--max-runs");
  const maxBulkBodyBytes = parsePositiveInteger(
    flags.maxBodyBytes ?? "1048576",
    "--max-body-bytes"
  );
  const progressEveryMs = Number(flags.progressEvery) * 1000;
  if (!(progressEveryMs >= 0)) throw new UsageError("--progress-every must be a number of seconds");

  // Read without following a link (a planted link would send another file's rows), and
  // remembered: resume and retry refuse an input that changed since.
  const inputFingerprint = input === "-" ? undefined : fingerprintInput(input);
  // JSONL: the columns of a CSV output are every key of the file (read whole before the start).
  let columns: string[] | undefined;
  // Rows whose inputs are all empty start no run (written `skipped`).
  let empty = 0;
  const total =
    input === "-"
      ? undefined
      : await countRows(
          input,
          inputFormat,
          mapping,
          reading,
          (all) => (columns = all),
          (count) => (empty = count)
        );
  if (flags.dryRun) {
    const rows =
      total ??
      (await countRows("-", inputFormat, mapping, reading, undefined, (count) => (empty = count)));
    const groups = Math.ceil(rows / chunkSize);
    const runs = rows - empty;
    process.stdout.write(
      `dry run: ${plural(rows, "row")} would start ${plural(runs, "run")} of "${spellId}" in ${plural(groups, "bulk run")} of up to ${chunkSize}` +
        (empty > 0 ? ` (${plural(empty, "empty row")} skipped, no run)` : "") +
        "; nothing was started\n"
    );
    if (rows > maxRuns) {
      process.stdout.write(
        `that is more than --max-runs ${maxRuns}: pass --max-runs ${rows} to run it\n`
      );
    }
    return EXIT_CODES.success;
  }
  // Before the key is read or a file is created: a job over budget sends and writes nothing.
  if (total !== undefined) checkRunBudget(total, maxRuns);
  const connection = resolveConnection(flags, process.env);
  if (input !== "-" && outputPath !== "-" && path.resolve(input) === path.resolve(outputPath)) {
    throw new UsageError("The output would overwrite the input: choose another -o file");
  }
  const journalPath = outputPath === "-" ? undefined : `${path.resolve(outputPath)}.journal`;
  // One command per journal at once: a second bulk into the same output refuses here.
  if (journalPath) JournalLock.acquire(journalPath);
  // An output is this command's own when a journal of ours sits next to it.
  let ownOutput = false;
  if (journalPath && existsSync(journalPath)) {
    // A journal someone else could have planted does not make the output beside it ours.
    checkJournalFile(journalPath);
    const previous = replayJournal(Journal.read(journalPath).records);
    ownOutput = true;
    // A job that started nothing (the service refused it) leaves nothing to lose: the corrected
    // command may replace it.
    const startedNothing =
      previous.outcome !== undefined &&
      previous.writtenRows === 0 &&
      unwrittenWindows(previous).length === 0;
    if (previous.outcome !== "complete" && !startedNothing) {
      const resume = resumeStepCommand(
        journalPath,
        previous,
        { ...previous.job, input: input === "-" ? "-" : path.resolve(input) },
        flags
      );
      throw new UsageError(
        `${journalPath} belongs to an unfinished job: continue it with "${resume}", or delete it to start over`
      );
    }
  }
  const job: JobRecord = {
    type: "job",
    version: 1,
    spellId,
    input: input === "-" ? "-" : path.resolve(input),
    inputFormat,
    ...(Object.keys(reading).length > 0 ? { reading } : {}),
    output: outputPath === "-" ? "-" : path.resolve(outputPath),
    outputFormat,
    chunkSize,
    mapping,
    csvGuard: flags.csvGuard,
    ...(flags.columns ? { columns: flags.columns.split(",").map((name) => name.trim()) } : {}),
    baseUrl: connection.baseUrl,
    pollBaseUrl: connection.pollBaseUrl,
    authHeader: connection.authHeader ?? "authorization",
    ...(total === undefined ? {} : { total }),
    ...(inputFingerprint === undefined ? {} : { inputFingerprint }),
  };
  // Created 0600, never through a link; an existing output only when ours or --force.
  const output = OutputFile.create(outputPath, ownOutput || flags.force === true);
  const journal = journalPath ? Journal.create(journalPath, job, ownOutput) : undefined;
  const client = new SpellClient({
    ...connection,
    maxInFlight,
    maxBulkBodyBytes,
    bulkChunkSize: chunkSize,
  });
  if (!flags.quiet) announceRuns("bulk", total, spellId, maxRuns);
  const rows = jobRows(job);
  return runBulkJob(
    {
      client,
      job,
      ...budgeted(rows, total === undefined ? maxRuns : undefined),
      columns: () => columns ?? rows.columns(),
      journal,
      output,
      rerunUnknown: false,
      maxWindows: maxInFlight,
      next: { job, connection: flags },
    },
    { quiet: flags.quiet === true, progressEveryMs }
  );
}

function defaultOutput(input: string, format: TableFormat): string {
  if (input === "-") return "-";
  const parsed = path.parse(input);
  return path.join(parsed.dir, `${parsed.name}.out.${format}`);
}

/** Stdin's rows, which could not be counted first, stop at the budget (see `limitRows`). */
function budgeted<T extends { rows: AsyncIterable<unknown> }>(
  table: T,
  maxRuns: number | undefined
): T {
  return maxRuns === undefined ? table : { ...table, rows: limitRows(table.rows, maxRuns) };
}
