const path = require("node:path");
const { URL } = require("node:url");
// The page's directives are defined once, in TypeScript inside addin-server (which sends them as
// its header); tsx compiles that one import-free file for this CommonJS build script.
const { require: requireTypeScript } = require("tsx/cjs/api");
const { pageDirectives } = requireTypeScript(
  path.join(__dirname, "..", "addin-server", "src", "pageDirectives.ts"),
  __filename
);

/**
 * The Content-Security-Policy of the add-in's page (taskpane.html, which also hosts the custom
 * functions in the shared runtime), written into a `<meta http-equiv>` by the build. The
 * directives are addin-server's `pageDirectives` (addin-server/src/pageDirectives.ts), the same
 * list addin-server sends as its header (with `frame-ancestors`, which a meta tag cannot carry);
 * what this adds is the build's own part, what the page may connect to:
 *
 * - the configured service hosts: SPELL_BASE_URL, SPELL_POLL_BASE_URL and any
 *   SPELLRUN_CONNECT_SRC origins (space separated). A build naming no service leaves the choice
 *   to Settings, which accepts https:// hosts and this computer, so the policy allows exactly
 *   those;
 * - in development, the dev server's live-reload websocket.
 *
 * @example
 * contentSecurityPolicy({ dev: false, serviceUrls: ["https://api.example.com/v1"] });
 * // "default-src 'self'; script-src 'self' https://appsforoffice.microsoft.com; ... connect-src 'self' https://appsforoffice.microsoft.com https://api.example.com; ..."
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
  /** @type {Record<string, string[]>} */
  const directives = pageDirectives(
    // The dev server's live reload talks over a websocket to the page's own host.
    [...connect, ...(dev ? ["wss://localhost:*"] : [])],
    { development: dev }
  );
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");
}

module.exports = { contentSecurityPolicy };
