/**
 * Excel functions the playground's formula engine cannot evaluate, with why, so that a formula
 * using one shows #NAME? and a message saying so rather than a parser's error: LET and LAMBDA
 * name values and parameters inside a formula, which fast-formula-parser reads as cell
 * references or workbook names (`=LET(x,2,x*3)` read column X).
 */

const UNSUPPORTED: Record<string, string> = {
  LET: "LET is not implemented here (it names values inside a formula): write the values out, or put them in cells",
  LAMBDA: "LAMBDA is not implemented here (functions of your own are not modelled)",
};

/**
 * Why `formula` cannot be evaluated here, when it calls a function of {@link UNSUPPORTED}
 * (outside its texts).
 *
 * ## Example
 * ```ts
 * unsupportedFunction("=LET(x,2,x*3)"); // "LET is not implemented here (…)"
 * unsupportedFunction('="LET(x)"'); // undefined
 * ```
 *
 * @param formula The formula, with its "=".
 * @return The message (it says "not implemented", as the parser's own for an unknown function).
 */
export function unsupportedFunction(formula: string): string | undefined {
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""');
  const called = /(?:^|[^A-Za-z0-9_.])(?:_xlfn\.)?(LET|LAMBDA)\s*\(/i.exec(code);
  return called ? UNSUPPORTED[called[1].toUpperCase()] : undefined;
}

/**
 * Throws when `formula` calls a function the engine cannot evaluate (see
 * {@link unsupportedFunction}); the engine shows #NAME? with the message.
 *
 * @param formula The formula, with its "=".
 */
export function assertSupported(formula: string): void {
  const unsupported = unsupportedFunction(formula);
  if (unsupported) throw new Error(unsupported);
}
