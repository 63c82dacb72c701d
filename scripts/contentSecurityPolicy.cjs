const { URL } = require("node:url");

/**
 * The Content-Security-Policy of the add-in's page (taskpane.html, which also hosts the custom
 * functions in the shared runtime), written into a `<meta http-equiv>` by the build:
 *
 * - scripts only from the add-in itself and Office's CDN (Office.js loads its host scripts from
 *   appsforoffice.microsoft.com; the development build serves Office.js itself);
 * - connections only to the add-in itself (the dev server's proxy) and the configured service
 *   hosts: SPELL_BASE_URL, SPELL_POLL_BASE_URL and any SPELLRUN_CONNECT_SRC origins (space
 *   separated). A build naming no service leaves the choice to Settings, which accepts https://
 *   hosts and this computer, so the policy allows exactly those;
 * - styles from the add-in and inline (the pane inserts its stylesheet, Office.js its own);
 * - no plugins, no <base> change, no form posts anywhere.
 *
 * addin-server (addin-server/src/contentSecurityPolicy.ts) sends its own policy as a header with
 * the same sources and `frame-ancestors` (which a meta tag cannot carry); a browser applies both.
 *
 * Service text reaches the page only as text (never HTML), so this is a second wall, for a
 * dependency gone bad or a bug: a script from elsewhere does not run, and nothing the page holds
 * (the API key) can be sent to a host the user did not configure.
 *
 * @example
 * contentSecurityPolicy({ dev: false, serviceUrls: ["https://api.example.com/v1"] });
 * // "default-src 'self'; script-src 'self' https://appsforoffice.microsoft.com; ... connect-src 'self' https://api.example.com; ..."
 *
 * @param {{ dev: boolean, serviceUrls: (string | undefined)[] }} options the build's mode and the
 *   configured service addresses (empty or undefined ones are ignored)
 * @returns {string} the policy
 */
function contentSecurityPolicy({ dev, serviceUrls }) {
  const origins = [...new Set(serviceUrls.filter(Boolean).map((url) => new URL(url).origin))];
  // Settings' own rule when no host was built in: https:// anywhere; http:// on this computer
  // only in the development build (a production page names no loopback address).
  const connect =
    origins.length > 0
      ? origins
      : ["https:", ...(dev ? ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"] : [])];
  const directives = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "https://appsforoffice.microsoft.com"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    // The dev server's live reload talks over a websocket to the page's own host.
    // Office.js talks to and frames its own CDN (the same origins as addin-server's header).
    "connect-src": [
      "'self'",
      "https://appsforoffice.microsoft.com",
      ...connect,
      ...(dev ? ["wss://localhost:*"] : []),
    ],
    "frame-src": ["'self'", "https://appsforoffice.microsoft.com"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

module.exports = { contentSecurityPolicy };
