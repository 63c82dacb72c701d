/**
 * Excel's wildcards in text it looks for (SEARCH, MATCH, VLOOKUP, COUNTIF and the other
 * criteria): "A question mark matches any single character; an asterisk matches any sequence of
 * characters. If you want to find an actual question mark or asterisk, type a tilde (~) before
 * the character." Excel compares text without regard to case there.
 */

/** Whether `text` holds a wildcard (`*` or `?`, escaped ones included). */
export function hasWildcards(text: string): boolean {
  return /[*?]/.test(text);
}

/**
 * The pattern of `find` with Excel's wildcards, case ignored: `?` one character, `*` any run,
 * `~` before `?`, `*` or `~` takes it as it is.
 *
 * ## Example
 * ```ts
 * wildcardPattern("b*n", true).test("Bean"); // true
 * wildcardPattern("b~*n", true).test("b*n"); // true, and false for "bean"
 * ```
 *
 * @param find The text with wildcards.
 * @param whole True to match the whole text (a criterion, a lookup), false to find it in a text (SEARCH).
 * @return A case-insensitive regular expression.
 */
export function wildcardPattern(find: string, whole: boolean): RegExp {
  let pattern = "";
  for (let i = 0; i < find.length; i++) {
    const char = find[i];
    if (char === "~" && (find[i + 1] === "?" || find[i + 1] === "*" || find[i + 1] === "~")) {
      pattern += `\\${find[++i]}`;
    } else if (char === "?") pattern += "[\\s\\S]";
    else if (char === "*") pattern += whole ? "[\\s\\S]*" : "[\\s\\S]*?";
    else pattern += char.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
  }
  return new RegExp(whole ? `^${pattern}$` : pattern, "i");
}
