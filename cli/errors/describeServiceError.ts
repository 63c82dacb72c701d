import {
  SpellHttpError,
  SpellNetworkError,
  SpellRequestTooLargeError,
  SpellTimeoutError,
} from "spellrun";
import { commandAsRun } from "./commandAsRun.js";
import { networkCause } from "./networkCause.js";

/**
 * The message for a service failure, naming its real cause and what to do: nothing listens at
 * the address (with the emulator command for the port actually configured, when it is a local
 * address), a host name that does not resolve, a proxy that refuses or wants credentials, a
 * connection dropped before the answer, a body too large (413), a time-out. Addresses are
 * origins only (never a path, header or the key); a proxy's user and password are never shown.
 *
 * ## Example
 * ```ts
 * process.stderr.write(`spellrun: ${describeServiceError(error)}\n`);
 * ```
 *
 * @param error What the run or bulk failed with.
 * @param env The environment (the proxy variables).
 * @return One or more lines, without the leading "spellrun: " of the first.
 */
export function describeServiceError(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const message = error instanceof Error ? error.message : String(error);
  // A body too large is the request's fault, never a service that is down.
  if (
    error instanceof SpellRequestTooLargeError ||
    (error instanceof SpellHttpError && error.status === 413)
  ) {
    return [
      message,
      `the request was too large (HTTP 413) for the service: lower --max-body-bytes (bulk runs are split to stay below it) or --chunk-size; resume and retry take both for the rows not sent yet`,
    ].join("\nspellrun: ");
  }
  if (!(error instanceof SpellNetworkError) && !(error instanceof SpellTimeoutError)) {
    return message;
  }
  const url = error.url === undefined ? undefined : new URL(error.url);
  const where = url ? url.origin : "the service address";
  const cause = networkCause(error, env);
  const lines = [message];
  switch (cause.kind) {
    case "proxy":
      lines.push(
        cause.status === 407
          ? `the proxy ${cause.proxy} (HTTPS_PROXY / HTTP_PROXY) asks for credentials (HTTP 407): give them in the proxy URL (http://user:password@${cause.proxy}), or set NO_PROXY for ${url?.host ?? "the service"}`
          : cause.status !== undefined
            ? `the proxy ${cause.proxy} (HTTPS_PROXY / HTTP_PROXY) refused to connect to ${where} (HTTP ${cause.status}); nothing reached the service`
            : `the proxy ${cause.proxy} (HTTPS_PROXY / HTTP_PROXY) cannot be reached; nothing reached the service. Check the proxy variables, or set NO_PROXY for ${url?.host ?? "the service"}`
      );
      break;
    case "dns":
      lines.push(
        `the host name ${url?.hostname ?? ""} does not resolve (DNS): check the address (--base-url / --poll-base-url or SPELL_BASE_URL / SPELL_POLL_BASE_URL) and the network`
      );
      break;
    case "dropped":
      lines.push(
        `the connection to ${where} was closed before an answer (by the service or something in between); the request may have reached the service. A large request (a bulk of long rows) may be over the service's size limit: a smaller --chunk-size sends less at once`
      );
      break;
    case "tooLarge":
      lines.push(
        `the service refused the request as too large (HTTP 413): send less at once (a smaller --max-body-bytes or --chunk-size for a bulk)`
      );
      break;
    case "tls":
      lines.push(`the TLS certificate of ${where} was not accepted`);
      break;
    case "timeout":
      lines.push(`${where} did not answer in time; the service may be slow or overloaded`);
      break;
    default:
      lines.push(...nothingAnswered(where, url, error.endpoint === "getRun"));
  }
  return lines.join("\nspellrun: ");
}

/** Nothing listens there: is the service running, and how to start the emulator on that port. */
function nothingAnswered(where: string, url: URL | undefined, pollHost: boolean): string[] {
  const lines = [`nothing answered at ${where}. Is the Spell service running there?`];
  const local = url && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (local && url.port !== "") {
    // The emulator's base host serves start and bulk calls, its poll host getRun.
    const flag = pollHost ? "--poll-port" : "--port";
    lines.push(
      `to run the local emulator there, start it in a clone of spellrun with: npm run emulator -- ${flag} ${url.port} (its other port with ${flag === "--port" ? "--poll-port" : "--port"})`
    );
  } else {
    lines.push(
      `to try spellrun locally, start the emulator in a clone of spellrun (npm run emulator), then: ${commandAsRun()} … --base-url http://127.0.0.1:3001 --poll-base-url http://127.0.0.1:3002 (or SPELL_BASE_URL / SPELL_POLL_BASE_URL)`
    );
  }
  return lines;
}
