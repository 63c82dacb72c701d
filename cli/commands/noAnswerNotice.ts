import { isRetryAfterNoAnswer, type SpellLogger } from "spellrun";
import { proxyForUrl } from "../errors/proxyForUrl.js";

/**
 * A client logger that prints one line as soon as a host does not answer and the request will
 * be sent again, e.g.
 * `spellrun: no answer from http://127.0.0.1:3001 yet; retrying (Ctrl-C to stop)…`,
 * once per host. Through a proxy (`HTTPS_PROXY` / `HTTP_PROXY`, not bypassed by `NO_PROXY`) the
 * connection that got no answer is the proxy's, so the line names the proxy first:
 * `spellrun: no answer from the proxy http://proxy:3128 (HTTPS_PROXY) yet, on the way to
 * https://api.example; retrying (Ctrl-C to stop)…` (a proxy that did answer but could not
 * reach the service, `Proxy response (502)`, leaves the service named). Without it the command
 * stays silent through the whole retry schedule (about 9 s) before it says that nothing
 * answered. The final message and exit code do not change, and neither do the retries: this
 * only listens.
 *
 * ## Example
 * ```ts
 * const client = new SpellClient({ ...connection, logger: noAnswerNotice((line) => process.stderr.write(line), process.env) });
 * ```
 * @param write where the line goes (with its line break)
 * @param env the environment (the proxy variables)
 * @return a logger for `SpellClientOptions.logger`
 */
export function noAnswerNotice(
  write: (line: string) => void,
  env: NodeJS.ProcessEnv = {}
): SpellLogger {
  const told = new Set<string>();
  return (event) => {
    if (!isRetryAfterNoAnswer(event)) return;
    // The origin only: the URL of a getRun holds a run id, and no URL ever holds the key.
    const host = new URL(event.url).origin;
    const proxy = proxyForUrl(event.url, env);
    // A proxy that answered (its CONNECT refused) did its part: the service is the silent one.
    const viaProxy = proxy !== undefined && !/Proxy response \(\d{3}\)/.test(event.error);
    const key = viaProxy ? `proxy ${proxy.origin}` : host;
    if (told.has(key)) return;
    told.add(key);
    write(
      viaProxy
        ? `spellrun: no answer from the proxy ${proxy.origin} (${proxy.variable}) yet, on the way to ${host}; retrying (Ctrl-C to stop)…\n`
        : `spellrun: no answer from ${host} yet; retrying (Ctrl-C to stop)…\n`
    );
  };
}
