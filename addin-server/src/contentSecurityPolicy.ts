import { pageDirectives } from "./pageDirectives";

/**
 * The origins of Office that show an add-in in a frame (Excel on the web, Microsoft 365 pages and
 * Teams, in Microsoft's worldwide cloud): the default of the server's CSP `frame-ancestors`.
 * Sovereign clouds (US Government, China) serve Office from other domains: add theirs with the
 * `frameAncestors` option (`--frame-ancestors default,https://…`). Never `X-Frame-Options: SAMEORIGIN`, which
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
  "https://teams.microsoft.com",
  "https://*.teams.microsoft.com",
]);

/**
 * The Content-Security-Policy header of the add-in's pages, as @fastify/helmet directives: the
 * page's own directives (`pageDirectives`, the same list the build writes into the page's meta
 * tag), with calls allowed to `connectSources` (origins a user may choose "Directly" in
 * Settings; calls through this server are `'self'`), plus `frame-ancestors`: no foreign frames
 * of it but Office's.
 *
 * ## Example
 * ```ts
 * app.register(helmet, { contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(services, OFFICE_FRAME_ANCESTORS) } });
 * ```
 *
 * @param serviceOrigins Origins the page may call beside itself.
 * @param frameAncestors Origins allowed to frame the add-in.
 * @return The directives.
 */
export function contentSecurityPolicy(
  serviceOrigins: readonly string[],
  frameAncestors: readonly string[]
): Record<string, string[]> {
  return {
    ...pageDirectives(serviceOrigins),
    "frame-ancestors": ["'self'", ...frameAncestors],
  };
}
