/**
 * A Spell host the server forwards to, checked once at start: an absolute `http(s)` URL without
 * credentials, query or fragment (the same rule as the core's `parseServiceUrl`), kept without a
 * trailing slash, and its origin for the Content-Security-Policy.
 *
 * ## Example
 * ```ts
 * serviceOrigin("serviceBaseUrl", "https://api.spell.example/v1/"); // { url: "https://api.spell.example/v1", origin: "https://api.spell.example" }
 * ```
 *
 * @param name The option's name, for the message.
 * @param value The configured address.
 * @return The address and its origin.
 * @throws Error naming the option when the address is unusable.
 */
export function serviceOrigin(name: string, value: string): { url: string; origin: string } {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, got "${value}".`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new Error(`${name} must be an http(s) URL, got "${parsed.protocol}".`);
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new Error(`${name} must not hold a user name, password, query or fragment.`);
  }
  return { url: parsed.href.replace(/\/+$/, ""), origin: parsed.origin };
}
