import type { Observable } from "rxjs";
import type { ClientParts } from "./ClientParts.js";
import type { RunSnapshot } from "../types.js";
import { bulkContextOf } from "./bulkContextOf.js";
import { RunBatcher, type BatchSettings } from "./RunBatcher.js";

/**
 * One polling-mode run through the client's batcher, built on the first batched run (this
 * module is loaded then: a client without `batch` never loads it).
 *
 * ## Example
 * ```ts
 * batchedRun(parts, "echo", { text: "hi" }).subscribe(console.log);
 * ```
 * @param parts the client's parts (with `batchSettings`)
 * @param spellId the spell's id
 * @param inputs the spell's inputs
 * @return a cold Observable of this call's snapshots
 * @internal
 */
export function batchedRun(
  parts: ClientParts,
  spellId: string,
  inputs: Record<string, unknown>
): Observable<RunSnapshot> {
  parts.batcher ??= new RunBatcher(
    () => bulkContextOf(parts),
    parts.batchSettings as BatchSettings
  );
  return parts.batcher.run(spellId, inputs);
}
