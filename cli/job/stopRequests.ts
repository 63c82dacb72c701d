import { EXIT_CODES, type ExitCode } from "../errors/exitCodes.js";
import { watchOutputReader, type OutputReaderWatch } from "./watchOutputReader.js";

/**
 * Why a job is asked to stop: a signal (Ctrl-C, `timeout`/`docker stop`, a closed terminal) or
 * stdout's reader gone (`spellrun bulk … -o - | head -1`). Each is handled as Ctrl-C: stop
 * starting, cancel what is in flight, keep what finished; only the exit code and the words
 * differ (128 + the signal's number, as a shell reports it).
 *
 * ## Example
 * ```ts
 * const reason: StopReason = { cause: "SIGTERM", exitCode: 143, quiet: false };
 * ```
 */
export interface StopReason {
  cause: "SIGINT" | "SIGTERM" | "SIGHUP" | "EPIPE";
  exitCode: ExitCode;
  /** A closed pipe is a normal end for a pipeline: nothing is printed (as GNU tools do). */
  quiet: boolean;
}

const REASONS: Record<StopReason["cause"], StopReason> = {
  SIGINT: { cause: "SIGINT", exitCode: EXIT_CODES.interrupted, quiet: false },
  SIGTERM: { cause: "SIGTERM", exitCode: EXIT_CODES.terminated, quiet: false },
  SIGHUP: { cause: "SIGHUP", exitCode: EXIT_CODES.hangup, quiet: false },
  EPIPE: { cause: "EPIPE", exitCode: EXIT_CODES.pipeClosed, quiet: true },
};

/**
 * Listens for every request to stop a job: SIGINT, SIGTERM, SIGHUP and an EPIPE on stdout.
 * `onStop` is called for each (the caller counts: a second one exits at once). The stdout
 * listener stays after `dispose` while the process lives, so a late write to a closed pipe is
 * never an uncaught error with a stack trace. When the job writes its rows to stdout, the
 * reader's going is noticed as it happens, not at the next write (see `watchOutputReader`):
 * no run is started for a reader that has gone.
 *
 * ## Example
 * ```ts
 * const stop = listenForStop((reason) => void runner.cancel(), { outputIsStdout: true });
 * await stop.ready;
 * try { await runner.run(); } finally { stop.dispose(); }
 * ```
 * @param onStop called with the reason of each request
 * @param options `outputIsStdout`: watch stdout's reader (`-o -`)
 * @return `ready` (a reader already gone has been told: await it before the first start) and
 *   `dispose`, which removes the signal handlers and the watch
 */
export function listenForStop(
  onStop: (reason: StopReason) => void,
  options: { outputIsStdout?: boolean } = {}
): OutputReaderWatch {
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((signal) => {
    const handler = (): void => onStop(REASONS[signal]);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  let pipeOpen = true;
  // EPIPE, or any other failure to write stdout, or the reader seen going: nothing more can be
  // written, so stop. Only the first: every later write to the closed pipe fails the same way.
  const onPipeClosed = (): void => {
    if (!pipeOpen) return;
    pipeOpen = false;
    onStop(REASONS.EPIPE);
  };
  process.stdout.on("error", onPipeClosed);
  const watch = options.outputIsStdout ? watchOutputReader(onPipeClosed) : undefined;
  return {
    ready: watch?.ready ?? Promise.resolve(),
    dispose: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      watch?.dispose();
    },
  };
}
