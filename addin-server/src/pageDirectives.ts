/** Where Office.js comes from: Microsoft's CDN, which the production page loads it from. */
export const OFFICE_JS_ORIGIN = "https://appsforoffice.microsoft.com";

/**
 * The Content-Security-Policy directives of the add-in's page (taskpane.html, which also hosts
 * the custom functions in the shared runtime): the one list behind both the `<meta http-equiv>`
 * the build writes (scripts/contentSecurityPolicy.cjs) and this server's header
 * (contentSecurityPolicy.ts, which adds `frame-ancestors`, a directive a meta tag cannot carry).
 * Where this server serves the page the browser applies both, so a list of its own in either
 * place would only ever tighten the other, silently.
 *
 * - scripts only from the add-in itself and Office's CDN, never from an inline event attribute;
 * - connections only to the add-in itself, Office's CDN and `connectSources` (the service hosts);
 * - styles from the add-in and inline (the pane inserts its stylesheet, Fluent UI web components
 *   and Office.js their own);
 * - no plugins, no `<base>` change, no form posts anywhere.
 *
 * Service text reaches the page only as text (never HTML), so this is a second wall, for a
 * dependency gone bad or a bug: a script from elsewhere does not run, and nothing the page holds
 * (the API key) can be sent to a host the user did not configure.
 *
 * This file imports nothing, so the build (CommonJS, outside this package) loads it as it is.
 *
 * ## Example
 * ```ts
 * pageDirectives(["https://api.example.com"])["connect-src"];
 * // ["'self'", "https://appsforoffice.microsoft.com", "https://api.example.com"]
 * ```
 *
 * @param connectSources What the page may call beside itself and Office's CDN: service origins,
 *   or source expressions such as `https:` (duplicates are dropped).
 * @param options `development`: the dev server's page, which calls the emulator over
 *   http://localhost, so its requests are not upgraded to https.
 * @return The directives, each with its sources (none for `upgrade-insecure-requests`).
 */
export function pageDirectives(
  connectSources: readonly string[],
  options: { development?: boolean } = {}
): Record<string, string[]> {
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'", OFFICE_JS_ORIGIN],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    // Office.js talks to and frames its own CDN.
    "connect-src": ["'self'", OFFICE_JS_ORIGIN, ...new Set(connectSources)],
    "frame-src": ["'self'", OFFICE_JS_ORIGIN],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    ...(options.development ? {} : { "upgrade-insecure-requests": [] }),
  };
}
