/**
 * How a grid cell shows a model cell: its value, red for a failure, grey `#BUSY!` for a call that
 * has not answered yet, as Excel shows a custom function still calculating.
 */
import type { MockCell } from "../excel/mockWorkbook.js";
import { formatNumber } from "../excel/numericText.js";

/**
 * Messages of calls that have not answered: a SPELL.BULK row still running, and a run waiting for
 * the spending guard's "Allow" (the add-in returns `#N/A` with these, so formulas over them never
 * compute as if they were final; Excel would show the waiting custom function as `#BUSY!`).
 */
const WAITING_MESSAGE = /^(Still running|Waiting for your OK)/;

/**
 * Whether a cell shows a call that has not answered: `#BUSY!`, or an error whose message says the
 * call still runs or waits for the spending guard's answer.
 *
 * @example
 * ```ts
 * isBusy("#N/A", "Waiting for your OK: …"); // true
 * ```
 */
export function isBusy(value: string, message: string | undefined): boolean {
  return value === "#BUSY!" || (isErrorValue(value) && WAITING_MESSAGE.test(message ?? ""));
}

/** Whether a shown value is an Excel error (`#N/A`, `#VALUE!`, `#SPILL!`…). */
export function isErrorValue(value: string): boolean {
  return /^#[A-Z/0-9!?_]+$/.test(value);
}

/**
 * Writes what `shown` shows into the grid's `element`: its text, and classes for errors, busy
 * calls, formulas and numbers; `message` (why it shows an error) becomes its tooltip.
 *
 * @example
 * ```ts
 * showCell(td, workbook.cell("Reviews", "C2"), engine.messageAt("Reviews", "C2"));
 * ```
 */
export function showCell(element: HTMLElement, shown: MockCell, message: string | undefined): void {
  const value =
    typeof shown.value === "number"
      ? formatNumber(shown.value, shown.numberFormat)
      : String(shown.value);
  const isError = isErrorValue(value);
  const busy = isBusy(value, isError ? message : undefined);
  element.textContent = busy ? "#BUSY!" : value;
  element.classList.toggle("playground-error", isError && !busy);
  element.classList.toggle("playground-busy", busy);
  if (isError && message) element.title = message;
  else element.removeAttribute("title");
  element.classList.toggle("playground-formula", shown.formula !== undefined);
  element.classList.toggle("playground-number", typeof shown.value === "number");
}

/**
 * Shows the model's cell at `address` in the grid's `element`, as `showCell`, and names the
 * model's address in `data-cell` (for a person's tools and the specs: data-x and data-y are the
 * grid's own coordinates in its block).
 *
 * @example
 * ```ts
 * showModelCell(td, workbook.cell("Reviews", "C2"), "C2", (address) => engine.messageAt("Reviews", address));
 * ```
 * @param messageAt Why the cell shows an error (its tooltip): asked only of errors.
 */
export function showModelCell(
  element: HTMLElement,
  shown: MockCell,
  address: string,
  messageAt: (address: string) => string | undefined
): void {
  element.dataset.cell = address;
  const message = isErrorValue(String(shown.value)) ? messageAt(address) : undefined;
  showCell(element, shown, message);
}
