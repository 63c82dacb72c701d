import { SpellHttpError, SpellNetworkError, SpellTimeoutError } from "spellrun";

/**
 * Why a request got no usable answer, as far as the error says:
 *
 * - `refused`: nothing listens at the service's address (the request surely reached nothing);
 * - `dns`: the service's host name does not resolve;
 * - `proxy`: the proxy of `HTTPS_PROXY` / `HTTP_PROXY` refused the connection, does not resolve,
 *   or answered the tunnel with an error status (`status`, e.g. 407: it wants credentials);
 * - `dropped`: a connection was made and then closed before an answer (the request may have
 *   reached the service);
 * - `tooLarge`: the service answered 413: the request's body is larger than it takes;
 * - `tls`: the service's certificate was not accepted;
 * - `timeout`: no answer within the time limit;
 * - `other`: anything else (its message says what).
 *
 * ## Example
 * ```ts
 * const cause: NetworkCause = { kind: "proxy", proxy: "proxy.corp:3128", status: 407 };
 * ```
 */
export type NetworkCause =
  | { kind: "refused" | "dns" | "dropped" | "tooLarge" | "tls" | "timeout" | "other" }
  | { kind: "proxy"; proxy: string; status?: number };

/** Socket codes of a connection that was open and then closed under the request. */
const DROPPED = new Set([
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "ECONNABORTED",
]);

/**
 * Classifies a failure of a request to the service, for a message that names the real cause
 * instead of always asking whether the service is running. The proxy is the one the
 * environment names for the request's URL (as the command line's fetch uses it).
 *
 * ## Example
 * ```ts
 * networkCause(error, process.env); // { kind: "dns" }
 * ```
 * @param error what the run or bulk failed with
 * @param env the environment (proxy variables)
 * @return the cause
 */
export function networkCause(error: unknown, env: NodeJS.ProcessEnv): NetworkCause {
  if (error instanceof SpellHttpError) return { kind: error.status === 413 ? "tooLarge" : "other" };
  if (error instanceof SpellTimeoutError) return { kind: "timeout" };
  if (!(error instanceof SpellNetworkError)) return { kind: "other" };
  const chain = causeChain(error.cause);
  const proxy = error.url === undefined ? undefined : proxyFor(error.url, env);
  const tunnel = chain
    .map((cause) => /Proxy response \((\d{3})\)/.exec(cause.message ?? ""))
    .find((match) => match !== null);
  if (proxy && tunnel) return { kind: "proxy", proxy: proxy.host, status: Number(tunnel[1]) };
  const codes = new Set(chain.map((cause) => cause.code).filter((code) => code !== undefined));
  const unreachable = codes.has("ECONNREFUSED") || codes.has("ENOTFOUND") || codes.has("EAI_AGAIN");
  // A refused or unresolved connection through a proxy is the proxy's: the request never left.
  if (proxy && unreachable && chain.some((cause) => isProxyAddress(cause, proxy))) {
    return { kind: "proxy", proxy: proxy.host };
  }
  if (codes.has("ECONNREFUSED")) return { kind: "refused" };
  if (codes.has("ENOTFOUND") || codes.has("EAI_AGAIN")) return { kind: "dns" };
  if ([...codes].some((code) => DROPPED.has(code))) return { kind: "dropped" };
  if ([...codes].some((code) => /CERT|SSL|TLS|SELF_SIGNED/.test(code))) return { kind: "tls" };
  if (chain.some((cause) => /other side closed|socket hang up/i.test(cause.message ?? ""))) {
    return { kind: "dropped" };
  }
  return { kind: "other" };
}

interface ErrorLike {
  code?: string;
  message?: string;
  address?: string;
  hostname?: string;
  port?: number;
}

/** The causes of an error, depth first: `cause` chains and AggregateError lists. */
function causeChain(error: unknown, depth = 0): ErrorLike[] {
  if (!error || typeof error !== "object" || depth > 8) return [];
  const candidate = error as ErrorLike & { cause?: unknown; errors?: unknown };
  const inner = Array.isArray(candidate.errors)
    ? candidate.errors.flatMap((item) => causeChain(item, depth + 1))
    : [];
  // Fields one by one: an Error's message is not enumerable, so a spread would lose it.
  const own: ErrorLike = {
    code: typeof candidate.code === "string" ? candidate.code : undefined,
    message: typeof candidate.message === "string" ? candidate.message : undefined,
    address: typeof candidate.address === "string" ? candidate.address : undefined,
    hostname: typeof candidate.hostname === "string" ? candidate.hostname : undefined,
    port: typeof candidate.port === "number" ? candidate.port : undefined,
  };
  return [own, ...inner, ...causeChain(candidate.cause, depth + 1)];
}

/** The proxy the environment names for a URL (NO_PROXY is not consulted: a hint only). */
function proxyFor(url: string, env: NodeJS.ProcessEnv): URL | undefined {
  const https = url.startsWith("https:");
  const named = https
    ? env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY
    : env.http_proxy || env.HTTP_PROXY;
  if (!named) return undefined;
  try {
    return new URL(named);
  } catch {
    return undefined;
  }
}

function isProxyAddress(cause: ErrorLike, proxy: URL): boolean {
  const port = Number(proxy.port || (proxy.protocol === "https:" ? 443 : 80));
  const host = proxy.hostname.replace(/^\[|\]$/g, "");
  if (cause.hostname !== undefined) return cause.hostname === host;
  return cause.port === port && (cause.address === host || host === "localhost");
}
