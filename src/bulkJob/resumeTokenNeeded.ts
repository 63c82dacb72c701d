import type { BulkResumeToken } from "../types.js";

/**
 * Whether a window's resume token must be kept: its group id and the number of rows sent cannot
 * rebuild it, because the window's bulk spans several chunks (named or not yet: the token also
 * says which of them may have been sent) or its rows share runs (`reuse`).
 * Otherwise a store keeps the one group id, as the command line's journal does.
 *
 * ## Example
 * ```ts
 * resumeTokenNeeded({ spellId: "s", groupIds: ["g"], chunkSizes: [5] }); // false
 * ```
 * @param token the core's resume token of a window
 * @return true when only the token itself can re-attach the window
 */
export function resumeTokenNeeded(token: BulkResumeToken): boolean {
  return token.groupIds.length > 1 || token.chunkSizes.length > 1 || token.rows !== undefined;
}
