/**
 * Excel's operators over ranges and arrays, value by value, as dynamic-array Excel computes
 * them: `=B2:B6>5` gives five logical values (which FILTER takes), `=A2:A4&"!"` three texts, and
 * they spill. A single row or column is repeated along the other's length (`{1;2}*{10,20}` is a
 * 2 × 2 block), and a place one array lacks is #N/A, as in Excel. fast-formula-parser compared,
 * joined and added only the first value of an array.
 */
import { FormulaError } from "fast-formula-parser";
import operators, { type Operation } from "fast-formula-parser/formulas/operators";

let installed = false;

const isBlock = (value: unknown): value is unknown[][] =>
  Array.isArray(value) && value.length > 0 && Array.isArray(value[0]);

/** A block of one cell is that cell's value. */
const single = (value: unknown[][]) => value.length === 1 && value[0].length === 1;

/** The value at (r, c) of a block repeated along a length it does not have; #N/A past its edge. */
function at(block: unknown[][], r: number, c: number): unknown {
  const row = block.length === 1 ? block[0] : block[r];
  if (row === undefined) return new FormulaError("#N/A");
  const value = row.length === 1 ? row[0] : row[c];
  return c >= row.length && row.length !== 1 ? new FormulaError("#N/A") : value;
}

/**
 * `operation` applied value by value when either side is a block of several values.
 *
 * @param operation The parser's operation of two values.
 * @return The same operation over arrays.
 */
export function valueByValue(operation: Operation): Operation {
  return (left, infix, right, leftIsArray, rightIsArray) => {
    const leftBlock = isBlock(left) && !single(left);
    const rightBlock = isBlock(right) && !single(right);
    if (!leftBlock && !rightBlock) {
      return operation(
        left,
        infix,
        right,
        leftIsArray || isBlock(left),
        rightIsArray || isBlock(right)
      );
    }
    const a = isBlock(left) ? left : [[left]];
    const b = isBlock(right) ? right : [[right]];
    const height = Math.max(a.length, b.length);
    const width = Math.max(a[0].length, b[0].length);
    return Array.from({ length: height }, (_, r) =>
      Array.from({ length: width }, (_, c) => {
        const x = at(a, r, c);
        const y = at(b, r, c);
        if (x instanceof FormulaError) return x;
        if (y instanceof FormulaError) return y;
        return operation(x, infix, y, false, false);
      })
    );
  };
}

/** Makes the parser's comparison, `&` and arithmetic go value by value over arrays (idempotent). */
export function useArrayOperators(): void {
  if (installed) return;
  installed = true;
  const infix = operators.Infix;
  infix.compareOp = valueByValue(infix.compareOp);
  infix.concatOp = valueByValue(infix.concatOp);
  infix.mathOp = valueByValue(infix.mathOp);
}
