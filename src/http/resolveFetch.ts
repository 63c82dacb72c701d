import crossFetch from "cross-fetch";

/**
 * Picks the fetch implementation: the injected one, else the platform's, else cross-fetch
 * (Node 16 and old browsers have no global fetch).
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
  return crossFetch;
}
