import type { Observable } from "rxjs";
import type { BulkOptions, BulkResumeToken, BulkSnapshot } from "spellrun";

/**
 * The part of `SpellClient` a bulk needs (a fake in specs, the shared client in the add-in).
 *
 * ## Example
 * ```ts
 * const source: BulkSource = await sharedClient();
 * ```
 */
export interface BulkSource {
  bulk(
    spellId: string,
    inputsList: Record<string, unknown>[],
    options?: BulkOptions
  ): Observable<BulkSnapshot>;
  resumeBulk(
    token: BulkResumeToken,
    count: number,
    options?: Pick<BulkOptions, "detach">
  ): Observable<BulkSnapshot>;
}
