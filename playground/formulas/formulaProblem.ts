/**
 * Why a formula cannot be read, in Excel's words: Excel's dialog says "There's a problem with this
 * formula." and names the usual causes (a missing closing parenthesis, an operator without a
 * value…). The parser (fast-formula-parser, over chevrotain) says it in a grammar's words, its
 * message starting with a line break ("\nSUM(1,\n      ^\nError at position 1:7\nExpecting token
 * of type --> CloseParen <-- …"), so that its first line was empty and the page showed no reason.
 */

const OPERATORS = /^[+\-*/^&=<>%]/;

/** The parser's message, without the formula it repeats and the caret under it. */
function parserReason(message: string): string {
  const lines = message.split("\n").map((line) => line.trim());
  const at = lines.findIndex((line) => /^Error at position/.test(line));
  const reason = at >= 0 ? lines.slice(at + 1).join(" ") : lines.filter(Boolean).join(" ");
  return reason.replace(/\s+/g, " ").trim();
}

/** The character at which the parser stopped (1 for the first), when it says. */
function position(message: string): number | undefined {
  const found = /Error at position \d+:(\d+)/.exec(message);
  return found ? Number(found[1]) : undefined;
}

/**
 * The reason a formula cannot be read, for "There's a problem with this formula: <reason>".
 *
 * @example
 * ```ts
 * formulaProblem("=SUM(1,", parserError.message);
 * // "a closing parenthesis ) is missing (the formula ends at character 7)"
 * ```
 * @param formula The formula as typed, with or without its "=".
 * @param message The parser's error message.
 * @returns A reason, never empty.
 */
export function formulaProblem(formula: string, message: string): string {
  const text = formula.replace(/^=/, "");
  const at = position(message);
  const where = at === undefined ? "" : ` at character ${at}`;
  const token = /but found:? (?:--> )?'?(.*?)'?(?: <--)?$/.exec(parserReason(message))?.[1];
  const ended = token === "" || (at !== undefined && at > text.length);
  // What the parser found where it stopped ("this" when it does not say).
  const found = token || "this";
  const operator = OPERATORS.exec(text.trimStart())?.[0];
  if (operator && operator !== "-" && operator !== "+" && operator !== "=")
    return `the formula starts with the operator ${operator}, which has no value before it`;
  if (/CloseParen\b/.test(message) && !/CloseCurlyParen/.test(message)) {
    if (ended) return `a closing parenthesis ) is missing (the formula ends${where})`;
    if (found === ";")
      return `; is not a separator here: separate a function's arguments with commas${where}`;
    return `a closing parenthesis ) or a comma is missing before ${found}${where}`;
  }
  if (/CloseCurlyParen/.test(message)) return `a closing brace } is missing${where}`;
  if (/Expecting: one of these possible Token sequences/.test(message)) {
    const before = text.slice(0, (at ?? text.length + 1) - 1).trimEnd();
    const last = before.slice(-1);
    if (ended) return `the formula ends after ${last || "an operator"}, without a value after it`;
    return `an operator without a value: ${found} follows ${last || "an operator"}${where}`;
  }
  if (/Redundant input/.test(message))
    return found === ")"
      ? `there is a closing parenthesis ) without its opening one${where}`
      : `${found} is not expected here${where}`;
  const character = /unexpected character: ->(.)<-/.exec(message)?.[1];
  if (character === '"') return `a text is missing its closing quotation mark "${where}`;
  if (character) return `${character} is not understood here${where}`;
  return parserReason(message) || "Excel can't read it as a formula";
}
