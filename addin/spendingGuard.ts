import {
  identityKey,
  officeDocumentId,
  officeDocumentUrl,
  userOfKey,
  type DocumentIdentity,
} from "./spending/documentIdentity.js";
import { spendingGuardSlot, type SpendingGuardSlot } from "./spending/spendingGuardSlot.js";
import { loadSettings } from "./settings/loadSettings.js";
import { onSettingsChanged } from "./settings/onSettingsChanged.js";
import { SpendingGuard } from "./spending/SpendingGuard.js";
import { readStoredSpending } from "./spending/storedSpending.js";

export { SpendingGuard } from "./spending/SpendingGuard.js";
export { spendingGuardIfReady } from "./spending/spendingGuardSlot.js";
export type { SpendingChoice, SpendingGuardState } from "./spending/spendingGuardState.js";

/**
 * The runtime's spending guard for the open document, loaded on first use (its stored decision
 * and the limits from Settings) and following later settings changes.
 *
 * ## Example
 * ```ts
 * const guard = await spendingGuard();
 * ```
 *
 * @return The guard.
 */
export function spendingGuard(): Promise<SpendingGuard> {
  const state = spendingGuardSlot();
  state.guard ??= loadGuard(state);
  return state.guard;
}

/**
 * Drops the in-memory guard, as a reload of the add-in would (its stored decision stays); a
 * `documentUrl` and a `documentId` stand in for the open document's. For specs and screenshots.
 *
 * ## Example
 * ```ts
 * await resetSpendingGuard({ documentUrl: "https://contoso.sharepoint.com/book.xlsx" });
 * ```
 *
 * @param options The document's URL and id to use from now on (`undefined`: ask Office).
 */
export async function resetSpendingGuard(
  options: { documentUrl?: string; documentId?: string } = {}
): Promise<void> {
  const state = spendingGuardSlot();
  await state.ready?.flush();
  state.stopListening?.();
  state.guard = undefined;
  state.ready = undefined;
  state.stopListening = undefined;
  state.documentUrl = options.documentUrl;
  state.documentId = options.documentId;
}

async function loadGuard(state: SpendingGuardSlot): Promise<SpendingGuard> {
  const settings = await loadSettings();
  const identity: DocumentIdentity = {
    documentId: state.documentId ?? (await officeDocumentId()),
    url: state.documentUrl ?? officeDocumentUrl(),
    user: userOfKey(settings.apiKey),
  };
  const storageKey = identityKey(identity);
  const guard = new SpendingGuard(storageKey, await readStoredSpending(storageKey), settings);
  state.stopListening = onSettingsChanged((changed) => {
    guard.useLimits(changed);
    // Another key is another user: their decisions are their own, loaded on the next use.
    if (userOfKey(changed.apiKey) !== identity.user && state.ready === guard) {
      void resetSpendingGuard({ documentUrl: state.documentUrl, documentId: state.documentId });
    }
  });
  state.ready = guard;
  return guard;
}
