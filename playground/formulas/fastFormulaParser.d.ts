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
    onCell?: (reference: CellReference) => unknown;
    onRange?: (reference: RangeReference) => unknown[][];
    onVariable?: (name: string, sheet: string) => CellReference | RangeReference | null;
  }
  export default class FormulaParser {
    constructor(config?: FormulaParserConfig);
    /** Evaluates `formula` (without its `=`) as if it were in the cell at `position`. */
    parse(formula: string, position: CellReference, allowReturnArray?: boolean): unknown;
    static MAX_ROW: number;
    static MAX_COLUMN: number;
  }
}
