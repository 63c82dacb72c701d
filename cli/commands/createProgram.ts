import { Command, Option } from "commander";
import { bulkCommand, type BulkFlags } from "./bulkCommand.js";
import { DEFAULT_MAX_RUNS } from "./runBudget.js";
import { emulatorCommand } from "./emulatorCommand.js";
import { getCommand, type GetFlags } from "./getCommand.js";
import { resumeCommand, type ResumeFlags } from "./resumeCommand.js";
import { retryCommand, type RetryFlags } from "./retryCommand.js";
import { runCommand, type RunFlags } from "./runCommand.js";
import { statusCommand } from "./statusCommand.js";
import { writeIgnoringClosedPipe } from "../errors/writeIgnoringClosedPipe.js";

/** The emulator's example line: only where the emulator is installed (a clone). */
const EMULATOR_EXAMPLE_LINE =
  "  spellrun emulator --time-scale 0.1  # a local service to try it all\n";

const EXAMPLES = `
Examples:
  export SPELL_API_KEY=...            # or --api-key-file FILE; never on the command line
  export SPELL_BASE_URL=https://api.example.com SPELL_POLL_BASE_URL=https://poll.example.com
  spellrun run summarize --input '{"text":"Spells run workflows. They are stored."}'
  spellrun run summarize --input-file inputs.json --poll --output summary
  spellrun get 7f3a9c                 # the run id printed when a wait ended before the run
  spellrun bulk summarize reviews.csv -o summaries.csv --map body=text --only body
  spellrun bulk sentiment reviews.jsonl -o - --quiet | jq .outputs.label
  spellrun bulk summarize reviews.csv --dry-run
  spellrun bulk summarize excel-export.csv --encoding windows-1252 --delimiter ";"
  spellrun status summaries.csv.journal
  spellrun resume summaries.csv.journal
  spellrun retry summaries.csv.journal  # run failed, cancelled and expired rows again
EMULATOR_EXAMPLE

Environment:
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   the proxy to reach the service through, and hosts to reach directly
  SPELLRUN_LOG=debug                  as --verbose; SPELLRUN_LOG=trace also logs bodies (without the key)

Exit codes:
  0 every run succeeded   1 some rows failed, errored, were cancelled, unknown or expired
  2 usage                 3 bad input (the message names the line)
  4 the service refused the job, nothing was started (spellrun run: the run was not started)
  5 the service failed after runs were started (resumable; run: the run may go on, see get)
  6 the journal is in use by another spellrun (nothing was started)
  129 SIGHUP, 130 Ctrl-C, 143 SIGTERM, 141 output pipe closed: stopped as Ctrl-C (resumable)
`;

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function withConnection(command: Command): Command {
  return command
    .option("--base-url <url>", "service address of start and bulk calls (env SPELL_BASE_URL)")
    .option("--poll-base-url <url>", "service address of getRun (env SPELL_POLL_BASE_URL)")
    .option("--auth-header <name>", "authorization (Bearer) or x-api-key", undefined)
    .option("--api-key-file <file>", "read the API key from this file (else env SPELL_API_KEY)")
    .option(
      "--verbose",
      "log each request, answer, retry, poll and cancel on stderr (SPELLRUN_LOG=debug)"
    )
    .addOption(new Option("--api-key <key>").hideHelp());
}

/** `--max-in-flight`: bulk, resume and retry hold this many bulk runs at once. */
const maxInFlightOption = () =>
  new Option("--max-in-flight <n>", "bulk runs held at once").default("8");

/** `--progress-every`: how often a job prints a progress line when stderr is not a terminal. */
const progressEveryOption = () =>
  new Option(
    "--progress-every <seconds>",
    "interval of progress lines when stderr is not a terminal"
  ).default("10");

/** `-q, --quiet`: no progress on stderr. */
const quietOption = () => new Option("-q, --quiet", "no progress on stderr");

/** `--max-runs`: bulk, resume and retry start at most this many new runs. */
const maxRunsOption = () =>
  new Option(
    "--max-runs <n>",
    "refuse to start more new runs than this, before anything is sent"
  ).default(String(DEFAULT_MAX_RUNS));

/** `--max-body-bytes`: bulk, resume and retry split a bulk run whose body would be larger. */
const maxBodyBytesOption = () =>
  new Option(
    "--max-body-bytes <n>",
    "largest bulkStart body; a larger bulk run is split before sending (the service answers 413)"
  ).default("1048576");

/** `--chunk-size` of resume and retry: smaller bulk runs for the rows not sent yet. */
const resumeChunkSizeOption = () =>
  new Option(
    "--chunk-size <n>",
    "rows per bulk run for rows not sent yet (at most the job's own chunk size)"
  );

/** `--no-csv-guard` of resume and retry: confirms a job that began without the guard. */
const confirmNoCsvGuardOption = () =>
  new Option("--no-csv-guard", "confirm continuing a job that began with --no-csv-guard");

/** `--input`: where a journal's job input is when it is not beside the journal (resume, retry). */
const journalInputOption = () =>
  new Option("--input <file>", "the job's input, when it is not in the journal's folder");

/**
 * Builds the `spellrun` command line (commander): run, bulk, resume, retry, status, emulator, with
 * `--help` examples and the exit codes. Each action sets `process.exitCode`; errors are thrown
 * for `main` to report.
 *
 * ## Example
 * ```ts
 * await createProgram("0.1.0").parseAsync(["node", "spellrun", "status", "out.csv.journal"]);
 * ```
 * @param version the package version, for `--version`
 * @param options `emulator`: whether the emulator is installed (a clone of the repository); when
 *   not, `--help` neither lists the command nor its example (`spellrun emulator` still says how to
 *   get it)
 * @return the program
 */
export function createProgram(version: string, options: { emulator?: boolean } = {}): Command {
  const emulator = options.emulator ?? true;
  const program = new Command("spellrun")
    .description(
      "Run Spell Run spells from the command line: one run, or one run per row of a CSV/TSV/JSONL file."
    )
    // GNU style: the program's name and version (`spellrun 0.1.0`).
    .version(`spellrun ${version}`, "-V, --version", "print the name and version")
    .exitOverride()
    .showHelpAfterError()
    .addHelpText(
      "after",
      EXAMPLES.replace("EMULATOR_EXAMPLE\n", emulator ? EMULATOR_EXAMPLE_LINE : "")
    );

  withConnection(
    program
      .command("run")
      .description("run a spell once and print its outputs (JSON, or one output as plain text)")
      .argument("<spell>", "the spell id")
      .option("--input <json>", "the inputs as a JSON object (required: --input '{}' for none)")
      .option("--input-file <file>", "read the inputs (a JSON object) from a file, - for stdin")
      .option("--wait", "wait mode: one request held until the run ends (default)")
      .option("--poll", "polling mode: start, then poll until the run ends")
      .option("--output <names...>", "print only these outputs (one name: plain text)")
  ).action(async (spell: string, flags: RunFlags) => {
    process.exitCode = await runCommand(spell, flags);
  });

  withConnection(
    program
      .command("get")
      .description(
        "fetch a run started earlier by its id (run prints it when a wait ends before the run): polls the poll host until the run ends, starts nothing"
      )
      .argument("<runId>", "the run id")
      .option("--output <names...>", "print only these outputs (one name: plain text)")
  ).action(async (runId: string, flags: GetFlags) => {
    process.exitCode = await getCommand(runId, flags);
  });

  withConnection(
    program
      .command("bulk")
      .description(
        "one run per row of a CSV/TSV/JSONL file (or - for stdin); output in input order, with a journal"
      )
      .argument("<spell>", "the spell id")
      .argument("<input>", "input.csv | input.tsv | input.jsonl | -")
      .option(
        "-o, --output <file>",
        "output file (.csv, .tsv, .jsonl) or - for stdout; default <input>.out.<ext>"
      )
      .option("--format <format>", "format of stdin input: csv, tsv or jsonl")
      .option(
        "-e, --encoding <name>",
        "the input's text encoding, e.g. windows-1252, latin1, utf-16le (default: by its byte order mark, else UTF-8, checked)"
      )
      .option(
        "-d, --delimiter <char>",
        'cell delimiter of CSV/TSV input, e.g. ";" or "\\t" (default , or tab)'
      )
      .option(
        "-H, --no-header-row",
        "the CSV/TSV input has no header row: its columns are named a, b, c, … (as csvkit)"
      )
      .option(
        "--map <column=input>",
        "send a column under another input name (repeatable)",
        collect
      )
      .option("--only <columns>", "send only these columns (comma-separated) as inputs")
      .option(
        "--columns <outputs>",
        "CSV output columns for the outputs (default: those of the first rows)"
      )
      .option("--chunk-size <n>", "rows per bulk run", "500")
      .addOption(maxInFlightOption())
      .addOption(maxRunsOption())
      .addOption(maxBodyBytesOption())
      .option("--dry-run", "check the input and print how many runs would start; start none")
      .option(
        "--no-csv-guard",
        "write the spell's output cells starting with = + - @ tab CR as they are (unsafe in spreadsheets; input cells are never changed)"
      )
      .addOption(progressEveryOption())
      .addOption(quietOption())
      .option("--force", "replace an existing output file that spellrun did not write")
  ).action(async (spell: string, input: string, flags: BulkFlags) => {
    process.exitCode = await bulkCommand(spell, input, flags);
  });

  withConnection(
    program
      .command("resume")
      .description(
        "continue a bulk job from its journal: re-attach to its bulk runs, start only rows never submitted"
      )
      .argument("<journal>", "the journal next to the output (<output>.journal)")
      .addOption(maxInFlightOption())
      .option(
        "--rerun-unknown",
        "start again the rows whose bulkStart was sent but never confirmed (may run them twice)"
      )
      .addOption(maxRunsOption())
      .addOption(maxBodyBytesOption())
      .addOption(resumeChunkSizeOption())
      .addOption(confirmNoCsvGuardOption())
      .addOption(progressEveryOption())
      .addOption(quietOption())
      .addOption(journalInputOption())
  ).action(async (journal: string, flags: ResumeFlags) => {
    process.exitCode = await resumeCommand(journal, flags);
  });

  withConnection(
    program
      .command("retry")
      .description(
        "run again the rows of a finished job that failed, errored, were cancelled or expired; every row once in the output, succeeded rows never run again"
      )
      .argument("<journal>", "the journal next to the output (<output>.journal)")
      .addOption(maxInFlightOption())
      .option(
        "--rerun-unknown",
        "also run the rows whose bulkStart may have reached the service (may run them twice)"
      )
      .addOption(maxRunsOption())
      .addOption(maxBodyBytesOption())
      .addOption(resumeChunkSizeOption())
      .addOption(confirmNoCsvGuardOption())
      .option(
        "--input-changed",
        "run the rows again with the input as it is now, though it changed since the job began"
      )
      .addOption(progressEveryOption())
      .addOption(quietOption())
      .addOption(journalInputOption())
  ).action(async (journal: string, flags: RetryFlags) => {
    process.exitCode = await retryCommand(journal, flags);
  });

  program
    .command("status")
    .description("what a bulk job has done, from its journal (exit 0 when complete)")
    .argument("<journal>", "the journal next to the output")
    .action((journal: string) => {
      process.exitCode = statusCommand(journal);
    });

  program
    // Hidden where it is not installed: its message then says how to get it.
    .command("emulator", { hidden: !emulator })
    .description(
      "start the local Spell service emulator (spellrun emulator --help lists its flags)"
    )
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[flags...]", "emulator flags")
    .action(async (flags: string[]) => {
      await emulatorCommand(flags, process.env);
    });

  program.configureOutput({
    // Help and usage to a pipe that closed early (`spellrun --help | head -1`) end quietly.
    writeOut: (text) => writeIgnoringClosedPipe(process.stdout, text),
    writeErr: (text) => writeIgnoringClosedPipe(process.stderr, text),
    outputError: (text, write) => write(`spellrun: ${text.replace(/^error: /, "")}`),
  });
  return program;
}
