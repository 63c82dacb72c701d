import {
  identityKey,
  officeDocumentId,
  officeDocumentUrl,
  userOfKey,
  type DocumentIdentity,
} from "./spending/documentIdentity.js";
import { runtimeSingleton } from "./runtimeSingleton.js";
import { loadSettings } from "./settings/loadSettings.js";
import { onSettingsChanged } from "./settings/onSettingsChanged.js";
import { SpendingGuard } from "./spending/SpendingGuard.js";
import { readStoredSpending } from "./spending/storedSpending.js";

export { SpendingGuard } from "./spending/SpendingGuard.js";
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
  const state = guardState();
  state.guard ??= loadGuard(state);
  return state.guard;
}

/**
 * The guard when it is already loaded (no await on a filled-down column's hot path).
 *
 * ## Example
 * ```ts
 * const guard = spendingGuardIfReady();
 * ```
 */
export function spendingGuardIfReady(): SpendingGuard | undefined {
  return guardState().ready;
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
  const state = guardState();
  await state.ready?.flush();
  state.stopListening?.();
  state.guard = undefined;
  state.ready = undefined;
  state.stopListening = undefined;
  state.documentUrl = options.documentUrl;
  state.documentId = options.documentId;
}

interface GuardState {
  guard?: Promise<SpendingGuard>;
  ready?: SpendingGuard;
  stopListening?: () => void;
  documentUrl?: string;
  documentId?: string;
}

function guardState(): GuardState {
  return runtimeSingleton("spendingGuard", () => ({}));
}

async function loadGuard(state: GuardState): Promise<SpendingGuard> {
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
