/**
 * The proxy the environment sends a request to `url` through, as the command line's fetch does
 * (undici's `EnvHttpProxyAgent`): `https_proxy` / `HTTPS_PROXY` for https (else the HTTP one),
 * `http_proxy` / `HTTP_PROXY` for http, none for a host `NO_PROXY` lists (names, `.domain`
 * suffixes, `host:port`, `*`). Only what may be printed is returned: the proxy's origin, never
 * its user or password, and the variable that named it.
 *
 * ## Example
 * ```ts
 * proxyForUrl("http://127.0.0.1:3001/spells/start", { HTTP_PROXY: "http://u:p@proxy:3128" });
 * // { origin: "http://proxy:3128", variable: "HTTP_PROXY" }
 * ```
 * @param url the request's URL
 * @param env the environment
 * @return the proxy, or undefined when the request goes directly
 */
export function proxyForUrl(
  url: string,
  env: NodeJS.ProcessEnv
): { origin: string; variable: string } | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const names =
    target.protocol === "https:"
      ? ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"]
      : ["http_proxy", "HTTP_PROXY"];
  const variable = names.find((name) => env[name]);
  if (variable === undefined || bypassed(target, env.no_proxy ?? env.NO_PROXY ?? "")) {
    return undefined;
  }
  try {
    const proxy = new URL(env[variable] as string);
    return { origin: `${proxy.protocol}//${proxy.host}`, variable };
  } catch {
    return undefined;
  }
}

/** Whether `NO_PROXY` sends the target directly. */
function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  return noProxy
    .split(/[,\s]+/)
    .filter((entry) => entry !== "")
    .some((entry) => {
      if (entry === "*") return true;
      const [name, entryPort] = entry.toLowerCase().split(/:(?=\d+$)/);
      if (entryPort !== undefined && entryPort !== port) return false;
      const bare = name.replace(/^\*?\./, "");
      return host === bare || host.endsWith(`.${bare}`);
    });
}
