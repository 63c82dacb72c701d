/**
 * C0 controls but tab and line feed, DEL, C1 controls (0x9b is a one-byte CSI), and the bidi
 * overrides that reorder what a terminal shows.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from elsewhere (a service's message or output, a journal's fields) made safe to print to
 * a terminal: control characters are removed, so an escape sequence cannot recolour, move the
 * cursor, rewrite the screen, set the window title or plant a hyperlink; a carriage return cannot
 * hide the start of a line. Line feeds and tabs stay. What remains of a sequence (`[31m`) shows
 * as the plain text it is.
 *
 * ## Example
 * ```ts
 * terminalText("bad input\u001b[2J\u001b]0;pwned\u0007"); // "bad input[2J]0;pwned"
 * ```
 *
 * @param text Any text.
 * @return The text without control characters.
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL, "");
}
