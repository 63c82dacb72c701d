import { SpellError } from "../errors/SpellError.js";
import { parseServiceUrl } from "./parseServiceUrl.js";

/**
 * The address as the paths are appended to it, or `SpellError` naming the option.
 *
 * ## Example
 * ```ts
 * serviceUrl("baseUrl", "https://api.example.com/"); // "https://api.example.com"
 * ```
 * @param option the option the address came from
 * @param value the address as given
 * @return the address without a trailing slash
 * @throws SpellError when the address is not a service URL
 * @internal
 */
export function serviceUrl(option: "baseUrl" | "pollBaseUrl", value: unknown): string {
  const parsed = parseServiceUrl(value);
  if (!parsed.ok) throw new SpellError(`SpellClient: ${option} ${parsed.says}`);
  return parsed.url;
}
