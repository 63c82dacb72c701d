/** A lone UTF-16 surrogate: a high one not followed by a low one, or a low one alone. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a text is well-formed UTF-16 (no lone surrogate), so it can be put into a URL:
 * `encodeURIComponent` throws `URIError` on a lone surrogate, which a run id from a caller or a
 * service (JSON `"\ud800"`) may hold. (`String.prototype.isWellFormed` is missing in older
 * WebViews.)
 *
 * ## Example
 * ```ts
 * isWellFormedText("run-1"); // true
 * isWellFormedText("run-\uD800"); // false
 * ```
 * @param text any text
 * @return false when it holds a lone surrogate
 * @internal
 */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
