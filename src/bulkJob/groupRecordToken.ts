import type { BulkResumeToken, BulkSnapshot } from "../types.js";
import { newGroupToken, type JobWindow } from "./JobWindow.js";

/**
 * The token to record when a snapshot names a window's group (or one more of its groups), or
 * undefined when it names nothing new (see `newGroupToken`). Once chunk intents were recorded,
 * the token keeps saying which chunks may have left (`mayHaveSent`).
 *
 * ## Example
 * ```ts
 * const token = groupRecordToken(window, snapshot, "summarize");
 * if (token) store.recordGroup(window.index, token.groupIds[0], token);
 * ```
 * @param window the window
 * @param snapshot a snapshot of its bulk
 * @param spellId the job's spell
 * @return the token to record, or undefined
 * @internal
 */
export function groupRecordToken<Row>(
  window: JobWindow<Row>,
  snapshot: BulkSnapshot,
  spellId: string
): BulkResumeToken | undefined {
  const token = newGroupToken(window, snapshot, spellId);
  if (token === undefined) return undefined;
  if (window.mayHaveSent !== undefined && token.chunkSizes.length > 1) {
    const mayHaveSent = Math.max(window.mayHaveSent, token.mayHaveSent ?? 0, token.groupIds.length);
    return { ...token, mayHaveSent: Math.min(mayHaveSent, token.chunkSizes.length) };
  }
  return token;
}
