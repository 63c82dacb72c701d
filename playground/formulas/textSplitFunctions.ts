/**
 * TEXTBEFORE, TEXTAFTER and TEXTSPLIT, which fast-formula-parser lacks, to Microsoft's pages:
 * TEXTBEFORE(text, delimiter, [instance_num], [match_mode], [match_end], [if_not_found]) "returns
 * text that occurs before a given character or string"; a negative instance_num searches from the
 * end; match_mode 1 ignores case; match_end treats the end of text as a delimiter; "Returns #N/A
 * error if delimiter isn't contained in text", #VALUE! for instance_num 0 or beyond the text's
 * length. TEXTSPLIT(text, col_delimiter, [row_delimiter], [ignore_empty], [match_mode],
 * [pad_with]) spills the parts across (and down), short rows padded with #N/A by default. A
 * delimiter may be an array of delimiters (`{",","."}`).
 */
import FormulaParser, { FormulaError } from "fast-formula-parser";
import type { FunctionArgument } from "fast-formula-parser";
import { gridOf } from "./valueOrder.js";

const helpers = FormulaParser.FormulaHelpers;
const types = FormulaParser.Types;

const given = (argument: FunctionArgument | undefined): argument is FunctionArgument =>
  argument !== undefined && !argument.omitted;
const textOf = (argument: FunctionArgument): string =>
  helpers.accept(argument, types.STRING) as string;
const numberOf = (argument: FunctionArgument | undefined, fallback: number): number =>
  given(argument) ? Math.trunc(helpers.accept(argument, types.NUMBER) as number) : fallback;

/** A delimiter argument's texts (one, or an array of them). */
function delimitersOf(argument: FunctionArgument): string[] {
  return gridOf(argument.value)
    .flat()
    .map((value) => {
      if (value instanceof FormulaError) throw value;
      return value === null || value === undefined ? "" : String(value);
    });
}

/** Where a delimiter occurs in `text`, left to right, each after the one before. */
function occurrences(
  text: string,
  delimiters: string[],
  ignoreCase: boolean
): { at: number; length: number }[] {
  const within = ignoreCase ? text.toLowerCase() : text;
  const needles = delimiters
    .filter((delimiter) => delimiter !== "")
    .map((delimiter) => (ignoreCase ? delimiter.toLowerCase() : delimiter));
  const found: { at: number; length: number }[] = [];
  for (let from = 0; from < within.length;) {
    let next: { at: number; length: number } | undefined;
    for (const needle of needles) {
      const at = within.indexOf(needle, from);
      if (at >= 0 && (!next || at < next.at || (at === next.at && needle.length > next.length)))
        next = { at, length: needle.length };
    }
    if (!next) break;
    found.push(next);
    from = next.at + next.length;
  }
  return found;
}

/** TEXTBEFORE's and TEXTAFTER's shared search: the text before or after the delimiter found. */
function textAround(
  side: "before" | "after",
  textArgument: FunctionArgument,
  delimiter: FunctionArgument,
  [instanceNumber, matchMode, matchEnd, ifNotFound]: (FunctionArgument | undefined)[]
): unknown {
  const text = textOf(textArgument);
  // TEXTBEFORE: "If text is an empty string, Excel returns empty text."
  if (text === "" && side === "before") return "";
  const delimiters = delimitersOf(delimiter);
  const instance = numberOf(instanceNumber, 1);
  if (instance === 0 || Math.abs(instance) > Math.max(text.length, 1))
    return new FormulaError("#VALUE!");
  // An empty delimiter matches at once: at the start from the front, at the end from the back.
  if (delimiters.every((each) => each === "")) {
    const at = instance > 0 ? 0 : text.length;
    return side === "before" ? text.slice(0, at) : text.slice(at);
  }
  const found = occurrences(text, delimiters, numberOf(matchMode, 0) === 1);
  if (numberOf(matchEnd, 0) === 1) {
    if (instance > 0) found.push({ at: text.length, length: 0 });
    else found.unshift({ at: 0, length: 0 });
  }
  const chosen = instance > 0 ? found[instance - 1] : found[found.length + instance];
  if (!chosen) return given(ifNotFound) ? ifNotFound.value : new FormulaError("#N/A");
  return side === "before" ? text.slice(0, chosen.at) : text.slice(chosen.at + chosen.length);
}

/** TEXTBEFORE(text, delimiter, [instance_num], [match_mode], [match_end], [if_not_found]). */
function TEXTBEFORE(
  text: FunctionArgument,
  delimiter: FunctionArgument,
  ...options: FunctionArgument[]
): unknown {
  return textAround("before", text, delimiter, options);
}

/** TEXTAFTER(text, delimiter, [instance_num], [match_mode], [match_end], [if_not_found]). */
function TEXTAFTER(
  text: FunctionArgument,
  delimiter: FunctionArgument,
  ...options: FunctionArgument[]
): unknown {
  return textAround("after", text, delimiter, options);
}

/** `text` cut at each delimiter found (all of it when there is none). */
function split(text: string, delimiters: string[], ignoreCase: boolean): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const { at, length } of occurrences(text, delimiters, ignoreCase)) {
    parts.push(text.slice(from, at));
    from = at + length;
  }
  parts.push(text.slice(from));
  return parts;
}

/** TEXTSPLIT(text, col_delimiter, [row_delimiter], [ignore_empty], [match_mode], [pad_with]). */
function TEXTSPLIT(
  textArgument: FunctionArgument,
  columnDelimiter?: FunctionArgument,
  rowDelimiter?: FunctionArgument,
  ignoreEmpty?: FunctionArgument,
  matchMode?: FunctionArgument,
  padWith?: FunctionArgument
): unknown {
  const text = textOf(textArgument);
  const across = given(columnDelimiter) ? delimitersOf(columnDelimiter) : [];
  const down = given(rowDelimiter) ? delimitersOf(rowDelimiter) : [];
  if (across.every((each) => each === "") && down.every((each) => each === ""))
    return new FormulaError("#VALUE!");
  const ignoreCase = numberOf(matchMode, 0) === 1;
  const skipEmpty = given(ignoreEmpty) && (helpers.accept(ignoreEmpty, types.BOOLEAN) as boolean);
  const keep = (parts: string[]) => (skipEmpty ? parts.filter((part) => part !== "") : parts);
  const rows = keep(down.some((each) => each !== "") ? split(text, down, ignoreCase) : [text])
    .map((row) => keep(split(row, across, ignoreCase)))
    .filter((row) => row.length > 0);
  if (rows.length === 0) return new FormulaError("#CALC!");
  const width = Math.max(...rows.map((row) => row.length));
  const pad = given(padWith) ? padWith.value : new FormulaError("#N/A");
  return rows.map((row) => [...row, ...Array<unknown>(width - row.length).fill(pad)]);
}

/** The text functions that split text at delimiters. */
export const textSplitFunctions: Record<string, (...args: FunctionArgument[]) => unknown> = {
  TEXTBEFORE,
  TEXTAFTER,
  TEXTSPLIT,
};
