/**
 * The two Excel error codes that can carry a custom message; the only ones these functions raise.
 *
 * ## Example
 * ```ts
 * const code: ExcelErrorCode = "#N/A";
 * ```
 */
export type ExcelErrorCode = "#VALUE!" | "#N/A";

/** Longest custom message we hand to Excel; the error card shows a short text, not an essay. */
const MAX_MESSAGE_LENGTH = 250;

/**
 * Stand-in with the same shape as `CustomFunctions.Error`, used where the Excel runtime is absent
 * (Node specs, benchmarks, a page opened outside Excel), so the functions run everywhere.
 */
class DetachedExcelError extends Error {
  override name = "ExcelError" as const;

  constructor(
    readonly code: CustomFunctions.ErrorCode,
    message: string
  ) {
    super(message);
  }
}

/**
 * An Excel error value with a custom message: `CustomFunctions.Error` inside Excel (so the cell
 * shows the code and the message on its error card), an object of the same shape elsewhere.
 *
 * ## Example
 * ```ts
 * throw excelError("#VALUE!", "inputs is empty. Accepted: JSON object text, ...");
 * ```
 *
 * @param code `#VALUE!` for a wrong argument, `#N/A` for a result that is not available.
 * @param message What went wrong and what to do; cut to 250 characters.
 * @return A value to throw from, or return in a matrix of, a custom function.
 */
export function excelError(code: ExcelErrorCode, message: string): CustomFunctions.Error {
  const text =
    message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
  // The enum object may be missing at runtime in older hosts; its values are these literals.
  const errorCode = code as CustomFunctions.ErrorCode;
  if (typeof CustomFunctions !== "undefined" && typeof CustomFunctions.Error === "function") {
    return new CustomFunctions.Error(errorCode, text);
  }
  return new DetachedExcelError(errorCode, text);
}

/**
 * True for values made by {@link excelError} (or any `CustomFunctions.Error`), so they pass
 * through error mapping unchanged.
 *
 * ## Example
 * ```ts
 * if (isExcelError(error)) throw error;
 * ```
 *
 * @param value Anything caught.
 * @return Whether it is an Excel error value.
 */
export function isExcelError(value: unknown): value is CustomFunctions.Error {
  if (typeof CustomFunctions !== "undefined" && typeof CustomFunctions.Error === "function") {
    if (value instanceof CustomFunctions.Error) return true;
  }
  return value instanceof DetachedExcelError;
}
