import { readFileSync } from "node:fs";
import {
  SpellClient,
  SpellHttpError,
  SpellNetworkError,
  SpellPollLimitError,
  SpellRunError,
  SpellTimeoutError,
} from "spellrun";
import { describeServiceError } from "../errors/describeServiceError.js";
import { networkCause } from "../errors/networkCause.js";
import { CliError } from "../errors/CliError.js";
import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { InputError } from "../errors/InputError.js";
import { resolveConnection, type ConnectionFlags } from "./resolveConnection.js";
import { UsageError } from "../errors/UsageError.js";
import { terminalText } from "../errors/terminalText.js";
import { commandAsRun } from "../errors/commandAsRun.js";
import { printRunOutputs } from "./printRunOutputs.js";
import { decodeInputBytes } from "../table/decodeInput.js";
import { listenForStop, type StopReason } from "../job/stopRequests.js";

/**
 * The options of `spellrun run`.
 *
 * ## Example
 * ```ts
 * const flags: RunFlags = { input: '{"text":"hi"}', output: ["summary"] };
 * ```
 */
export interface RunFlags extends ConnectionFlags {
  input?: string;
  inputFile?: string;
  wait?: boolean;
  poll?: boolean;
  output?: string[];
}

/**
 * `spellrun run <spell>`: one run; prints its outputs as JSON on stdout, or one named output as
 * plain text. The inputs must be given (`--input` or `--input-file`; `--input '{}'` for none): a
 * paid run is never started with inputs nobody chose. Exit code 0 on success, 1 when the run
 * ends in failure or error (its outputs are still printed), 2 for an `--output` the run does not
 * have (all outputs printed), 4 when the service failed and no run was started, 5 when the run
 * may still be going on at the service (a wait-mode 504, time-out or dropped connection, a poll
 * that failed): the message then names the run id when the service gave one and the
 * `spellrun get` command that fetches it.
 *
 * ## Example
 * ```ts
 * process.exitCode = await runCommand("summarize", { input: '{"text":"Hello. World."}' });
 * ```
 * @param spellId the spell
 * @param flags the options
 * @return the exit code
 */
export async function runCommand(spellId: string, flags: RunFlags): Promise<ExitCode> {
  if (flags.wait && flags.poll) throw new UsageError("--wait and --poll exclude each other");
  const inputs = readInputs(flags);
  const client = new SpellClient(resolveConnection(flags, process.env));
  const abort = new AbortController();
  // Ctrl-C, SIGTERM (`timeout`, `docker stop`), SIGHUP: the service has no cancel for a single
  // run, so a stop only stops waiting for it (and says so); the exit code names the signal.
  let stopped: StopReason | undefined;
  let runId: string | number | undefined;
  const stop = listenForStop((reason) => {
    // A second request exits at once, with the first one's code.
    if (stopped) process.exit(stopped.exitCode);
    stopped = reason;
    abort.abort();
  });
  try {
    const outputs = await client.runOutputs(spellId, inputs, {
      wait: !flags.poll,
      signal: abort.signal,
      onProgress: (snapshot) => (runId = snapshot.runId ?? runId),
    });
    printRunOutputs(outputs, flags.output);
    return EXIT_CODES.success;
  } catch (error) {
    if (stopped && abort.signal.aborted) {
      if (!stopped.quiet)
        process.stderr.write(`spellrun: ${stoppedWords(stopped, runId, flags)}\n`);
      return stopped.exitCode;
    }
    if (error instanceof SpellRunError) {
      printRunOutputs(error.outputs);
      process.stderr.write(`spellrun: ${terminalText(error.message)}\n`);
      return EXIT_CODES.someRowsFailed;
    }
    const leftGoing = runLeftGoing(error, flags);
    if (leftGoing) throw leftGoing;
    throw error;
  } finally {
    stop.dispose();
  }
}

/** What a stopped `run` says: which request stopped it, and that the run may still finish. */
function stoppedWords(
  reason: StopReason,
  runId: string | number | undefined,
  flags: RunFlags
): string {
  const what = { SIGINT: "interrupted", SIGTERM: "SIGTERM received", SIGHUP: "SIGHUP received" }[
    reason.cause as "SIGINT" | "SIGTERM" | "SIGHUP"
  ];
  const id = runIdIn(runId);
  return id === undefined
    ? `${what}; stopped waiting: the service has no cancel for a single run, so the run itself may still finish at the service`
    : `${what}; stopped waiting: the service has no cancel for a single run, so the run ${id} may still finish at the service; fetch its outputs with: ${commandAsRun()} get ${quoteArgument(String(id))}${connectionHint(flags)}`;
}

/**
 * A failure that left a run going on at the service (or possibly so), said as such (exit 5),
 * never as "nothing was started": a wait-mode start that ended before the run did (a gateway's
 * 504, no answer in time, a connection dropped after sending), or a poll of a run that was
 * started (the id is then known). The message names the run id when the service gave one, and
 * the `spellrun get` command that fetches it.
 */
function runLeftGoing(error: unknown, flags: RunFlags): CliError | undefined {
  let runId: string | number | undefined;
  let started = false;
  if (error instanceof SpellPollLimitError) {
    runId = error.runId;
    started = true;
  } else if (
    error instanceof SpellHttpError ||
    error instanceof SpellTimeoutError ||
    error instanceof SpellNetworkError
  ) {
    if (error.endpoint === "getRun") {
      started = true;
      runId =
        error.url === undefined ? undefined : runIdIn(new URL(error.url).searchParams.get("runId"));
    } else if (error.endpoint === "start") {
      if (error instanceof SpellHttpError) {
        started = error.status === 504;
        if (started) runId = runIdIn((error.body as { runId?: unknown } | null)?.runId);
      } else {
        started =
          error instanceof SpellTimeoutError || networkCause(error, process.env).kind === "dropped";
      }
    }
  }
  if (!started) return undefined;
  const next =
    runId === undefined
      ? `the run may have been started and still be going on at the service, but its id never arrived, so it cannot be fetched${flags.poll ? "" : "; a long spell is best run with --poll"} (starting it again may pay for it twice)`
      : `the run ${runId} is still going on at the service; fetch its outputs with: ${commandAsRun()} get ${quoteArgument(String(runId))}${connectionHint(flags)} (starting it again would pay for it twice)`;
  return new CliError(
    `${describeServiceError(error)}\nspellrun: ${next}`,
    EXIT_CODES.serviceUnfinished,
    {
      cause: error,
    }
  );
}

/** A run id the service named, when it looks like one (printed in a command to type). */
function runIdIn(runId: unknown): string | number | undefined {
  if (typeof runId === "number" && Number.isSafeInteger(runId)) return runId;
  if (typeof runId === "string" && /^[\w.:-]{1,200}$/.test(runId)) return runId;
  return undefined;
}

/** The connection flags the printed command needs to reach the same poll host. */
function connectionHint(flags: RunFlags): string {
  return [
    flags.pollBaseUrl === undefined ? "" : ` --poll-base-url ${quoteArgument(flags.pollBaseUrl)}`,
    flags.authHeader === undefined ? "" : ` --auth-header ${quoteArgument(flags.authHeader)}`,
    flags.apiKeyFile === undefined ? "" : ` --api-key-file ${quoteArgument(flags.apiKeyFile)}`,
  ].join("");
}

function quoteArgument(text: string): string {
  return /^[\w./:@=+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

function readInputs(flags: RunFlags): Record<string, unknown> {
  if (flags.input !== undefined && flags.inputFile !== undefined) {
    throw new UsageError("--input and --input-file exclude each other");
  }
  if (flags.input === undefined && flags.inputFile === undefined) {
    throw new UsageError(
      "No inputs: pass --input '{\"name\":\"value\"}' or --input-file FILE (--input '{}' runs the spell with no inputs); nothing was started"
    );
  }
  let text = flags.input ?? "";
  let source = "--input";
  let bytes: Buffer;
  if (flags.inputFile !== undefined) {
    source = flags.inputFile === "-" ? "stdin" : flags.inputFile;
    try {
      bytes = readFileSync(flags.inputFile === "-" ? 0 : flags.inputFile);
    } catch (error) {
      throw new InputError(source, undefined, `cannot read: ${(error as Error).message}`);
    }
    // As bulk reads its input: a byte order mark is dropped, a byte that is not UTF-8 refused.
    text = decodeInputBytes(source, bytes);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(source, undefined, `not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputError(source, undefined, "the inputs must be a JSON object");
  }
  return value as Record<string, unknown>;
}
