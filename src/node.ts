/**
 * spellrun's Node-only parts (`spellrun/node`): what needs the file system, kept out of the root
 * so that browser bundles of `spellrun` never pull `node:fs`.
 *
 * ## Example
 * ```ts
 * import { FileCheckpointStore } from "spellrun/node";
 * ```
 * @packageDocumentation
 */
export { FileCheckpointStore } from "./bulkJob/FileCheckpointStore.js";
