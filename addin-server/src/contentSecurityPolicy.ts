/**
 * The origins of Office that show an add-in in a frame (Excel on the web and Microsoft 365 pages):
 * the default of the server's CSP `frame-ancestors`. Never `X-Frame-Options: SAMEORIGIN`, which
 * would keep Excel on the web from showing the task pane at all.
 *
 * ## Example
 * ```ts
 * createAddinServer({ ...options, frameAncestors: [...OFFICE_FRAME_ANCESTORS, "https://intranet.example"] });
 * ```
 */
export const OFFICE_FRAME_ANCESTORS: readonly string[] = Object.freeze([
  "https://*.officeapps.live.com",
  "https://*.office.com",
  "https://*.office365.com",
  "https://*.microsoft365.com",
  "https://*.cloud.microsoft",
  "https://*.sharepoint.com",
  "https://*.live.com",
]);

/** Where Office.js comes from: Microsoft's CDN, which the production page loads it from. */
const OFFICE_JS_ORIGIN = "https://appsforoffice.microsoft.com";

/**
 * The Content-Security-Policy of the add-in's pages, as @fastify/helmet directives: scripts from
 * this server and Office's CDN only, calls to this server (the forwarded service) and to the two
 * service hosts (for a user who chose "directly" in Settings), no plugins, no foreign frames of it
 * but Office's.
 *
 * ## Example
 * ```ts
 * app.register(helmet, { contentSecurityPolicy: { directives: contentSecurityPolicy(services, OFFICE_FRAME_ANCESTORS) } });
 * ```
 *
 * @param serviceOrigins Origins of the two Spell hosts.
 * @param frameAncestors Origins allowed to frame the add-in.
 * @return The directives.
 */
export function contentSecurityPolicy(
  serviceOrigins: readonly string[],
  frameAncestors: readonly string[]
): Record<string, string[]> {
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'", OFFICE_JS_ORIGIN],
    // Fluent UI web components write style elements at run time.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", OFFICE_JS_ORIGIN, ...new Set(serviceOrigins)],
    "frame-src": ["'self'", OFFICE_JS_ORIGIN],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'self'", ...frameAncestors],
  };
}
