/**
 * A function that replaces every appearance of `key` in a text with `[redacted]`: verbatim, and
 * JSON-escaped the way a service may echo it (`\/` for `/`, `\uXXXX` for any character, in
 * either case of hex digits), so an echoed key never reaches an error, a snapshot or a URL.
 *
 * ```
 * redact('{"echo":"sk\/live\u002dkey"}')  ──▶  '{"echo":"[redacted]"}'   (key "sk/live-key")
 * ```
 *
 * ## Example
 * ```ts
 * const redact = keyRedactor(apiKey);
 * redact(`bad key ${apiKey}`); // "bad key [redacted]"
 * ```
 * @param key the API key (already checked: no control characters)
 * @return the redacting function
 * @internal
 */
export function keyRedactor(key: string): (text: string) => string {
  // Every character may also come as \uXXXX; "/" also as "\/" (both legal JSON escapes).
  const escaped = new RegExp(
    Array.from(key, (character) => {
      const code = character.codePointAt(0) as number;
      const units = code > 0xffff ? character.split("") : [character];
      const asUnicode = units.map((unit) => `\\\\u${anyCaseHex(unit.charCodeAt(0))}`).join("");
      const literal = character.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      const slash = character === "/" ? "|\\\\\\/" : "";
      return `(?:${literal}|${asUnicode}${slash})`;
    }).join(""),
    "g"
  );
  return (text) => {
    const plain = text.includes(key) ? text.split(key).join("[redacted]") : text;
    // The escaped forms need a backslash: skip the regular expression on most answers.
    return plain.includes("\\") ? plain.replace(escaped, "[redacted]") : plain;
  };
}

/** The 4 hex digits of a UTF-16 unit, letters matching either case: `[eE]9`… */
function anyCaseHex(unit: number): string {
  return unit
    .toString(16)
    .padStart(4, "0")
    .replace(/[a-f]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
}
