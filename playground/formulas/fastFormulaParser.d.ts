/**
 * The part of fast-formula-parser (which ships no types) that the playground's formula engine
 * uses: synchronous `parse` with cell and range callbacks and custom functions.
 */
declare module "fast-formula-parser" {
  /** A cell reference, 1-based. */
  export interface CellReference {
    sheet?: string;
    row: number;
    col: number;
  }
  /** A range reference, 1-based and inclusive. */
  export interface RangeReference {
    sheet?: string;
    from: { row: number; col: number };
    to: { row: number; col: number };
  }
  /** An argument as the parser hands it to a custom function. */
  export interface FunctionArgument {
    value: unknown;
    isArray: boolean;
    isRangeRef?: boolean;
    isCellRef?: boolean;
    omitted?: boolean;
  }
  /** Excel's error values (`#VALUE!`, ...); `new FormulaError("#BUSY!")` makes another. */
  export class FormulaError extends Error {
    constructor(error: string, message?: string, details?: unknown);
    readonly error: string;
  }
  export interface FormulaParserConfig {
    functions?: Record<string, (...args: FunctionArgument[]) => unknown>;
    /** Functions that receive the parser (their first argument) before their arguments. */
    functionsNeedContext?: Record<string, (context: ParserContext, ...args: unknown[]) => unknown>;
    onCell?: (reference: CellReference) => unknown;
    onRange?: (reference: RangeReference) => unknown[][];
    onVariable?: (name: string, sheet: string) => CellReference | RangeReference | null;
  }
  /** The parser's argument types (`Types.STRING`, ...), as its helpers take them. */
  export interface ArgumentTypes {
    NUMBER: number;
    ARRAY: number;
    BOOLEAN: number;
    STRING: number;
    NUMBER_NO_BOOLEAN: number;
  }
  /** The helpers every built-in function reads its arguments with (one object, shared). */
  export interface FormulaHelpersApi {
    accept(
      argument: unknown,
      type?: number | number[] | null,
      defaultValue?: unknown,
      ...rest: unknown[]
    ): unknown;
    flattenParams(
      params: FunctionArgument[],
      type: number | null,
      allowUnion: boolean,
      hook: (
        item: unknown,
        info: { isLiteral: boolean; isCellRef: boolean; isRangeRef: boolean }
      ) => void,
      defaultValue?: unknown,
      minSize?: number
    ): void;
    /**
     * The values of a context function's two range arguments, the second read from its top-left
     * cell in the first one's shape (SUMIF's sum_range); the first twice when the second is null.
     */
    retrieveRanges(
      context: ParserContext,
      range: unknown,
      other: unknown
    ): [unknown[][], unknown[][]];
    /**
     * A plain value as a number: a number as it is, TRUE 1, text of a number its number; other
     * text (or "") throws #VALUE!.
     */
    acceptNumber(value: unknown, isArray?: boolean, allowBoolean?: boolean): number;
    /** A context function's argument read (a reference's value). */
    retrieveArg(context: ParserContext, argument: unknown): FunctionArgument;
  }
  /** What the parser's reference-reading helpers give (a reference's value, resolved). */
  export interface ParserContext {
    utils: { extractRefValue(argument: unknown): { val: unknown; isArray: boolean } };
  }
  export default class FormulaParser {
    constructor(config?: FormulaParserConfig);
    static FormulaHelpers: FormulaHelpersApi;
    static Types: ArgumentTypes;
    /** Evaluates `formula` (without its `=`) as if it were in the cell at `position`. */
    parse(formula: string, position: CellReference, allowReturnArray?: boolean): unknown;
    static MAX_ROW: number;
    static MAX_COLUMN: number;
  }
}

declare module "fast-formula-parser/formulas/operators" {
  /** One infix operator: the two sides, the operator's text, and which side is an array. */
  export type Operation = (
    left: unknown,
    infix: string,
    right: unknown,
    leftIsArray: boolean,
    rightIsArray: boolean
  ) => unknown;
  /** The parser's infix operators (one object, shared by every parser). */
  const operators: { Infix: { compareOp: Operation; concatOp: Operation; mathOp: Operation } };
  export default operators;
}

/** The number formatter (SheetJS's SSF) that fast-formula-parser's TEXT uses. */
declare module "fast-formula-parser/ssf/ssf" {
  /** `value` shown in Excel's number format `format` (`"0.00"`, `"yyyy-mm-dd"`, `"@"`). */
  export function format(format: string, value: number | string): string;
}
