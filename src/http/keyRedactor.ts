/**
 * What scrubs the key: `text` from a raw text (an error body that is not JSON, a Location),
 * `json` from a parsed answer, string by string, so the JSON around them stays intact.
 *
 * ## Example
 * ```ts
 * const safe = keyRedactor(apiKey).json(JSON.parse(text));
 * ```
 * @internal
 */
export interface Redactor {
  /** A raw text, the key verbatim or JSON-escaped. */
  text(text: string): string;
  /** A parsed error body: every string value (and property name, for a key of 8+ characters). */
  json(value: unknown): unknown;
  /**
   * A parsed 2xx answer read from `raw`: as `json` for a key of 8+ characters, untouched (the
   * same object) when `raw` cannot hold the key or the key is shorter.
   */
  answer(value: unknown, raw: string): unknown;
  /** Whether a text we are about to send (a run id) holds a key of 8+ characters. */
  holdsKey(text: string): boolean;
}

// A shorter key is no real secret and matches ordinary words: scrubbing it from a successful
// answer would mangle the protocol's own values ("s" in "success"). Error texts are still scrubbed.
/** Shortest key scrubbed from successful answers and composed texts. @internal */
export const MIN_KEY_LENGTH = 8;

/**
 * Replaces every appearance of `key` in a text with `[redacted]`: verbatim, and
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
 * redact.text(`bad key ${apiKey}`); // "bad key [redacted]"
 * redact.json({ echo: apiKey }); // { echo: "[redacted]" }
 * ```
 * In parsed JSON every string value is scrubbed (JSON.parse has decoded the escapes; a string
 * holding escaped JSON is caught by the escaped forms), so the JSON around them stays intact.
 * Keys shorter than 8 characters are scrubbed from error texts only (see `Redactor.answer`).
 * @param key the API key (already checked: no control characters)
 * @return the redactor
 * @internal
 */
export function keyRedactor(key: string): Redactor {
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
  const text = (raw: string): string => {
    const plain = raw.includes(key) ? raw.split(key).join("[redacted]") : raw;
    // The escaped forms need a backslash: skip the regular expression on most answers.
    return plain.includes("\\") ? plain.replace(escaped, "[redacted]") : plain;
  };
  const long = key.length >= MIN_KEY_LENGTH;
  const json = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map(json);
    // Object.fromEntries defines each name as data: an output named "__proto__" stays an output
    // (an assignment would replace the object's prototype instead).
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([name, inner]) => [
        long ? text(name) : name,
        json(inner),
      ])
    );
  };
  // Every escaped form holds a backslash: without the key or one, no string can hold the key.
  const answer = (value: unknown, raw: string): unknown =>
    long && (raw.includes(key) || raw.includes("\\")) ? json(value) : value;
  const holdsKey = (candidate: string): boolean => long && text(candidate) !== candidate;
  return { text, json, answer, holdsKey };
}

/** The 4 hex digits of a UTF-16 unit, letters matching either case: `[eE]9`… */
function anyCaseHex(unit: number): string {
  return unit
    .toString(16)
    .padStart(4, "0")
    .replace(/[a-f]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
}
