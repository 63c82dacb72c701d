import { firstValueFrom, isObservable } from "rxjs";
import type { BulkOptions, BulkResumeToken } from "../types.js";

/**
 * Calls the caller's own `beforeChunkStart` hook, if any, and waits for its answer (a promise, or
 * the first value of an observable).
 *
 * ## Example
 * ```ts
 * await callChunkHook(options.bulkOptions?.beforeChunkStart, token);
 * ```
 * @param hook the caller's hook
 * @param token the core's token for the chunk
 * @internal
 */
export async function callChunkHook(
  hook: BulkOptions["beforeChunkStart"],
  token: BulkResumeToken
): Promise<void> {
  if (!hook) return;
  const answer = hook(token);
  await (isObservable(answer) ? firstValueFrom(answer, { defaultValue: undefined }) : answer);
}
