/**
 * `spellrun/node`: what only Node programs need, kept out of the main entry so that browser
 * bundles never meet it.
 *
 * ## Example
 * ```ts
 * import { proxyFromEnvironment } from "spellrun/node";
 * ```
 * @packageDocumentation
 */
export { proxyFromEnvironment, type ProxyEnvironment } from "./proxyFromEnvironment.js";
export { FileCheckpointStore } from "../bulkJob/FileCheckpointStore.js";
export { CheckpointFileError } from "../bulkJob/CheckpointFileError.js";
