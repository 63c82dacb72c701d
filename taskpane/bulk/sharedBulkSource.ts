import { defer, from, switchMap } from "rxjs";
import { sharedClient } from "../../addin/sharedClient.js";
import type { BulkSource } from "./bulkRunController.js";

/**
 * The runtime's one `SpellClient` (shared with the custom functions, rebuilt when the settings
 * change) as a `BulkSource`: each bulk uses the client current when it starts.
 *
 * ## Example
 * ```ts
 * const controller = new BulkRunController(sharedBulkSource);
 * ```
 */
export const sharedBulkSource: BulkSource = {
  bulk: (spellId, inputsList, options) =>
    defer(() => from(sharedClient())).pipe(
      switchMap((client) => client.bulk(spellId, inputsList, options))
    ),
  resumeBulk: (token, count, options) =>
    defer(() => from(sharedClient())).pipe(
      switchMap((client) => client.resumeBulk(token, count, options))
    ),
};
