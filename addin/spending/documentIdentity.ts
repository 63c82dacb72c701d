import { hashText } from "../hashText.js";

/** The document setting holding the id the add-in gives a document. */
export const DOCUMENT_ID_SETTING = "spellrun.documentId";

/**
 * Who and what a spending decision belongs to: the document's own id (kept in its settings, so a
 * different file saved at the same address is a different document), its address, and the user
 * (a hash of the API key that pays: a co-author with another key is asked again).
 *
 * ## Example
 * ```ts
 * const key = identityKey({ documentId: "k3j…", url: "https://…/book.xlsx", user: "1x9…" });
 * ```
 */
export interface DocumentIdentity {
  /** The id the add-in keeps in the document's settings; `undefined` outside Office. */
  documentId: string | undefined;
  /** The document's address; `undefined` for a document never saved. */
  url: string | undefined;
  /** A hash of the API key (never the key): whose money a decision spends. */
  user: string;
}

/**
 * The storage key of an identity's spending record; `undefined` when the document has neither an
 * id nor an address (nothing to remember it by: it is remembered until the add-in closes).
 *
 * ## Example
 * ```ts
 * identityKey({ documentId: undefined, url: undefined, user: "" }); // undefined
 * ```
 *
 * @param identity The document and the user.
 * @return A key naming neither the address nor the key in clear.
 */
export function identityKey(identity: DocumentIdentity): string | undefined {
  if (!identity.documentId && !identity.url) return undefined;
  const text = JSON.stringify([identity.documentId ?? "", identity.url ?? "", identity.user]);
  return hashText(text).toString(36);
}

/**
 * A hash of the API key, standing for the user whose key pays (the key itself is never stored).
 *
 * ## Example
 * ```ts
 * userOfKey(settings.apiKey); // "1q3m5k7…"
 * ```
 *
 * @param apiKey The key from Settings (empty when none).
 * @return Its hash, or "" without a key.
 */
export function userOfKey(apiKey: string | undefined): string {
  return apiKey ? hashText(`spellrun user ${apiKey}`).toString(36) : "";
}

/**
 * The open document's id from its settings, given one (and saved with the document) when it has
 * none yet; `undefined` outside Office or when the settings cannot be read.
 *
 * ## Example
 * ```ts
 * const id = await officeDocumentId();
 * ```
 *
 * @return The id.
 */
export async function officeDocumentId(): Promise<string | undefined> {
  try {
    if (typeof Office === "undefined") return undefined;
    const settings = Office.context?.document?.settings;
    if (!settings) return undefined;
    const stored = settings.get(DOCUMENT_ID_SETTING) as unknown;
    if (typeof stored === "string" && /^[0-9a-z-]{8,64}$/.test(stored)) return stored;
    const id = newDocumentId();
    settings.set(DOCUMENT_ID_SETTING, id);
    await new Promise<void>((resolve) => settings.saveAsync(() => resolve()));
    return id;
  } catch {
    return undefined;
  }
}

/**
 * The open document's address inside Office; `undefined` elsewhere or for a document not saved.
 *
 * ## Example
 * ```ts
 * const url = officeDocumentUrl();
 * ```
 *
 * @return The address.
 */
export function officeDocumentUrl(): string | undefined {
  try {
    if (typeof Office === "undefined") return undefined;
    return Office.context?.document?.url || undefined;
  } catch {
    return undefined;
  }
}

function newDocumentId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return (
    random ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  ).toLowerCase();
}
