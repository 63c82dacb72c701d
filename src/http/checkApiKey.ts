import { SpellError } from "../errors/SpellError.js";

/**
 * Refuses a key that cannot be sent as a header value (missing, or holding a line break, space
 * or other control character, as a key read from a file with its newline does). The message
 * never repeats the key.
 *
 * ## Example
 * ```ts
 * checkApiKey(options.apiKey); // throws SpellError on "key\n"
 * ```
 * @param apiKey the key as given
 * @throws SpellError naming what is wrong (never the key)
 * @internal
 */
export function checkApiKey(apiKey: unknown): void {
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new SpellError("SpellClient: apiKey is required");
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(apiKey)) {
    throw new SpellError(
      "SpellClient: apiKey holds a line break, space or other control character " +
        "(a key read from a file often ends with a newline); remove it"
    );
  }
  if (/[^\u0021-\u007e]/.test(apiKey)) {
    // fetch cannot send it in a header, and would fail every request as a network error.
    throw new SpellError(
      "SpellClient: apiKey holds a character that is not plain ASCII " +
        "(a typographic dash or quote pasted from a document, a letter with an accent); retype it"
    );
  }
}
