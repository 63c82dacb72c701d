/**
 * Picks the fetch implementation: the injected one, else the platform's, else cross-fetch (old
 * browsers and runtimes without a global fetch). cross-fetch is loaded on the first request and
 * only there, so Node 20 and later (which have fetch) never load it, nor its node-fetch chain.
 *
 * ## Example
 * ```ts
 * const fetchFn = resolveFetch(options.fetch);
 * ```
 * @internal
 */
export function resolveFetch(injected?: typeof fetch): typeof fetch {
  if (injected) return injected;
  // Bound: browsers throw "Illegal invocation" when fetch is called detached from window.
  if (typeof globalThis.fetch === "function") return globalThis.fetch.bind(globalThis);
  let loaded: Promise<typeof fetch> | undefined;
  return async (input, init) => {
    const crossFetch = await (loaded ??= import("cross-fetch").then((module) => module.default));
    return crossFetch(input, init);
  };
}
