import type { Dispatcher } from "undici";
import type { SpellClientOptions } from "../types.js";

/**
 * The proxy variables `proxyFromEnvironment` reads (either case; the lower-case one wins, as
 * curl and undici do).
 *
 * ## Example
 * ```ts
 * const env: ProxyEnvironment = { HTTPS_PROXY: "http://proxy.example.com:3128", NO_PROXY: "localhost" };
 * ```
 */
export interface ProxyEnvironment {
  [name: string]: string | undefined;
  HTTPS_PROXY?: string;
  HTTP_PROXY?: string;
  NO_PROXY?: string;
}

/** The parts of Node's `process` used here, typed here so the declarations need no @types/node. */
interface NodeProcess {
  env: ProxyEnvironment;
  emitWarning: (warning: string | Error, ...rest: unknown[]) => void;
}

function nodeProcess(): NodeProcess {
  return (globalThis as unknown as { process: NodeProcess }).process;
}

/**
 * For Node programs behind a proxy: a `fetch` option that sends the client's requests through
 * the proxy named by `HTTPS_PROXY` / `HTTP_PROXY` (either case), going directly to the hosts of
 * `NO_PROXY`, as the `spellrun` command does. Node's own fetch ignores these variables, so
 * without this a program behind a corporate proxy times out.
 *
 * Without a proxy variable it returns `{}` (the platform's fetch, unchanged). undici, which does
 * the proxying, is loaded on the first request and only when a proxy is set; its one-time
 * "EnvHttpProxyAgent is experimental" warning is not printed (any other warning is).
 *
 * ## Example
 * ```ts
 * import { SpellClient } from "spellrun";
 * import { proxyFromEnvironment } from "spellrun/node";
 *
 * const client = new SpellClient({
 *   apiKey: "sk-example",
 *   baseUrl: "https://api.example.com",
 *   pollBaseUrl: "https://poll.example.com",
 *   ...proxyFromEnvironment(),
 * });
 * ```
 * @param env where to read the variables @default process.env
 * @return `{ fetch }` to spread into `SpellClientOptions`, or `{}` without a proxy variable
 */
export function proxyFromEnvironment(
  env: ProxyEnvironment = nodeProcess().env
): Pick<SpellClientOptions, "fetch"> {
  const httpProxy = env.http_proxy || env.HTTP_PROXY || undefined;
  const httpsProxy = env.https_proxy || env.HTTPS_PROXY || undefined;
  if (!httpProxy && !httpsProxy) return {};
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? "";
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
  return {
    fetch: async (input, init) => {
      const { fetch: undiciFetch, dispatcher } = await (loaded ??= load());
      return undiciFetch(input, { ...init, dispatcher } as RequestInit);
    },
  };
}

/**
 * undici 6 warns once per process that `EnvHttpProxyAgent` is experimental; a user behind a
 * proxy would see that from a library they did not ask warnings of. This one warning is
 * dropped, any other passes.
 */
function withoutExperimentalWarning<T>(build: () => T): T {
  const node = nodeProcess();
  const emitWarning = node.emitWarning;
  node.emitWarning = (warning, ...rest) => {
    const code = (rest[0] as { code?: string } | undefined)?.code;
    if (code === "UNDICI-EHPA") return;
    emitWarning.call(node, warning, ...rest);
  };
  try {
    return build();
  } finally {
    node.emitWarning = emitWarning;
  }
}
