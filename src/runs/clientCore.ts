/**
 * The client's core, loaded with its first call (`run`, `resumeRun`, `bulk`, `cancelBulk`,
 * `checkConnection`): the transport, the run slots, and single runs in wait and polling mode.
 * `import { SpellClient }` loads only the client and its option checks.
 *
 * ## Example
 * ```ts
 * const { clientParts, clientRun } = await import("./clientCore.js");
 * ```
 * @internal
 */
export { clientParts, type ClientParts } from "./ClientParts.js";
export { clientRun } from "./clientRun.js";
export { resumedRun } from "./resumedRun.js";
