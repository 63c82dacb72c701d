import { formatLogEvent, type SpellClientOptions } from "spellrun";
import { proxyFromEnvironment } from "spellrun/node";
import { noAnswerNotice } from "./noAnswerNotice.js";
import { terminalText } from "../errors/terminalText.js";

/**
 * The network flags every service command takes.
 *
 * ## Example
 * ```ts
 * const flags: NetworkFlags = { verbose: true };
 * ```
 */
export interface NetworkFlags {
  /** Log every request, answer, retry, poll and cancel on stderr (as `SPELLRUN_LOG=debug`). */
  verbose?: boolean;
}

/**
 * What the command line adds to a client's options from its flags and environment:
 *
 * - a logger that says at once when a host does not answer and the request is being retried
 *   (see `noAnswerNotice`), always;
 * - a logger writing one line per request, answer, retry, poll and cancel to stderr with
 *   `--verbose` or `SPELLRUN_LOG=debug`, and the bodies too (scrubbed of the key) with
 *   `SPELLRUN_LOG=trace`, without control characters (`terminalText`);
 * - a fetch through the proxy named by `HTTPS_PROXY` / `HTTP_PROXY` (either case), skipping the
 *   hosts of `NO_PROXY`: the library's `proxyFromEnvironment` (Node's own fetch ignores those
 *   variables). Without a proxy variable the platform's fetch is used, as before.
 *
 * ## Example
 * ```ts
 * const client = new SpellClient({ ...connection, ...networkOptions(flags, process.env) }); // resolveConnection does this
 * ```
 * @param flags the command's options
 * @param env the environment
 * @param write where log lines go
 * @return the `fetch`, `logger` and `logBodies` options to spread into the client's options
 */
export function networkOptions(
  flags: NetworkFlags,
  env: NodeJS.ProcessEnv,
  write: (line: string) => void = (line) => process.stderr.write(line)
): Pick<SpellClientOptions, "fetch" | "logger" | "logBodies"> {
  const level = (env.SPELLRUN_LOG ?? "").toLowerCase();
  const logs = flags.verbose === true || level === "debug" || level === "trace";
  // On a terminal the line may land on a bulk's progress bar: clear it first (it redraws below).
  const notice = noAnswerNotice(
    (line) => write(process.stderr.isTTY ? `\r\u001b[K${terminalText(line)}` : terminalText(line)),
    env
  );
  return {
    ...proxyFromEnvironment(env),
    logger: logs
      ? (event) => {
          // Log lines quote the service (ids, error messages): no control character passes,
          // on a terminal or in a log file that is printed later.
          write(`spellrun: debug: ${terminalText(formatLogEvent(event))}\n`);
          notice(event);
        }
      : notice,
    ...(logs ? { logBodies: level === "trace" } : {}),
  };
}
