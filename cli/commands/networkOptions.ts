import { formatLogEvent, type SpellClientOptions } from "spellrun";
import type { Dispatcher } from "undici";
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
 *   hosts of `NO_PROXY`, with undici's `EnvHttpProxyAgent` (Node's own fetch ignores those
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
  const proxied = proxyFetch(env);
  // On a terminal the line may land on a bulk's progress bar: clear it first (it redraws below).
  const notice = noAnswerNotice((line) =>
    write(process.stderr.isTTY ? `\r\u001b[K${terminalText(line)}` : terminalText(line))
  );
  return {
    ...(proxied ? { fetch: proxied } : {}),
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

/** A fetch through the environment's proxy, or undefined when no proxy variable is set. */
function proxyFetch(env: NodeJS.ProcessEnv): typeof fetch | undefined {
  const httpProxy = env.http_proxy || env.HTTP_PROXY || undefined;
  const httpsProxy = env.https_proxy || env.HTTPS_PROXY || undefined;
  if (!httpProxy && !httpsProxy) return undefined;
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? "";
  // Loaded on first use: a command line without a proxy never loads undici.
  let loaded: Promise<{ fetch: typeof fetch; dispatcher: Dispatcher }> | undefined;
  const load = async () => {
    const undici = await import("undici");
    const dispatcher = withoutExperimentalWarning(
      () => new undici.EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy })
    );
    // undici's own fetch with its own agent: Node 20's built-in fetch bundles an older undici,
    // whose dispatcher interface a newer agent does not promise to fit.
    return { fetch: undici.fetch as unknown as typeof fetch, dispatcher };
  };
  return async (input, init) => {
    const { fetch: undiciFetch, dispatcher } = await (loaded ??= load());
    return undiciFetch(input, { ...init, dispatcher } as RequestInit);
  };
}

/**
 * undici 6 warns once per process that `EnvHttpProxyAgent` is experimental; a user behind a
 * proxy would see that on every command. This one warning is dropped, any other passes.
 */
function withoutExperimentalWarning<T>(build: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const code = (rest[0] as { code?: string } | undefined)?.code;
    if (code === "UNDICI-EHPA") return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return build();
  } finally {
    process.emitWarning = emitWarning;
  }
}
