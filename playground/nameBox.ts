/**
 * Excel's Name Box, left of the formula bar: it shows the active cell's address, and a person may
 * type an address there ("XFD1048576", "B2:C9", "Sheet2!A1") and press Enter to go to it (Ctrl+G
 * and F5 bring the keyboard here, as Excel's "Go To" does). Escape, or leaving the box, shows the
 * active cell's address again.
 */

/** What the Name Box needs of the grid. */
export interface GoToTarget {
  /** Goes to an address; throws when it is not one. */
  goTo(address: string): void;
}

/**
 * Makes `box` (the formula bar's address) the Name Box.
 *
 * @example
 * ```ts
 * offerNameBox(document.getElementById("formula-address")!, grid, message, () => show());
 * ```
 * @param box The element showing the active cell's address.
 * @param grid Where Enter goes.
 * @param message Where "Reference isn't valid." is said.
 * @param restore Shows the active cell's address in the box again.
 */
export function offerNameBox(
  box: HTMLElement,
  grid: GoToTarget,
  message: HTMLElement | null,
  restore: () => void
): void {
  box.contentEditable = "plaintext-only";
  box.spellcheck = false;
  box.setAttribute("role", "textbox");
  box.setAttribute("aria-label", "Name Box");
  box.title = "Name Box: type a cell's address (XFD1048576) and press Enter to go there";
  box.addEventListener("focus", () => {
    // The whole address is selected, so what is typed replaces it (as in Excel).
    const range = document.createRange();
    range.selectNodeContents(box);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  });
  box.addEventListener("keydown", (event) => {
    event.stopPropagation(); // the grid's keys are not the box's
    if (event.key === "Escape") {
      event.preventDefault();
      box.blur();
      return;
    }
    if (event.key !== "Enter") return;
    event.preventDefault();
    const address = (box.textContent ?? "").trim();
    try {
      box.blur();
      grid.goTo(address);
      if (message) message.textContent = "";
    } catch {
      if (message) message.textContent = `Reference isn't valid: ${address}`;
      restore();
    }
  });
  box.addEventListener("blur", () => restore());
}
