import { keyRedactor, MIN_KEY_LENGTH } from "./keyRedactor.js";

/**
 * A text with the API key replaced by `[redacted]`, verbatim or JSON-escaped, by the same rule
 * the client scrubs the service's answers with (see `keyRedactor`). For messages a front end
 * composes from texts it did not write. A key shorter than 8 characters is no real secret and
 * would match ordinary words, so the text is left as it is.
 *
 * ## Example
 * ```ts
 * redactKey(`fetch https://x?key=${apiKey} failed`, apiKey); // "fetch https://x?key=[redacted] failed"
 * ```
 * @param text any text
 * @param apiKey the key (nothing is replaced when it is missing or short)
 * @return the text without the key
 */
export function redactKey(text: string, apiKey: string | undefined): string {
  if (apiKey === undefined || apiKey.length < MIN_KEY_LENGTH) return text;
  return keyRedactor(apiKey).text(text);
}
