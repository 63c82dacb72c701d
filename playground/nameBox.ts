/**
 * Excel's Name Box, left of the formula bar: it shows the active cell's address, and a person may
 * type an address there ("XFD1048576", "B2:C9", "Sheet2!A1") and press Enter to go to it (the Go
 * To dialog, Ctrl+G or F5, reads references as it does). A text that is no reference ("hello
 * world") goes nowhere: the box says "Reference isn't valid" (as the Go To dialog does; Excel
 * would make a name of it, and names are not kept here) and keeps the text selected to be
 * corrected. Escape, or leaving the box, shows the active cell's address again; after a good
 * Enter, Escape or Tab the grid has the keyboard.
 */

/** What the Name Box needs of the grid. */
export interface GoToTarget {
  /** Goes to an address; throws when it is not one. */
  goTo(address: string): void;
}

/**
 * Goes to a reference typed by a person (the Name Box, the Go To dialog).
 *
 * @example
 * ```ts
 * goToReference(grid, " B2:C9 "); // undefined: B2:C9 is selected
 * goToReference(grid, "B2:"); // "Reference isn't valid: B2:", and the selection stays
 * ```
 * @returns Excel's message when it is not a reference of the workbook (nothing moved), else
 *   undefined.
 */
export function goToReference(grid: GoToTarget, reference: string): string | undefined {
  const address = reference.trim();
  try {
    grid.goTo(address);
    return undefined;
  } catch {
    return `Reference isn't valid: ${address}`;
  }
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
 * @param message Where "Reference isn't valid: …" is said (beside the box, while it has the
 *   keyboard).
 * @param restore Shows the active cell's address in the box again.
 * @param backToGrid Gives the keyboard back to the grid (after Enter or Escape, as in Excel, where
 *   what is typed next goes into the active cell).
 */
export function offerNameBox(
  box: HTMLElement,
  grid: GoToTarget,
  message: HTMLElement | null,
  restore: () => void,
  backToGrid: () => void = () => undefined
): void {
  box.contentEditable = "plaintext-only";
  box.spellcheck = false;
  box.setAttribute("role", "textbox");
  box.setAttribute("aria-label", "Name Box");
  box.title = "Name Box: type a cell's address (XFD1048576) and press Enter to go there";
  // The whole text is selected, so what is typed replaces it (as in Excel).
  const selectAll = () => {
    const range = document.createRange();
    range.selectNodeContents(box);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  };
  box.addEventListener("focus", selectAll);
  // The grid's clicks are not the box's: jspreadsheet (on the document) ends the grid's selection
  // and drops its current worksheet on a click outside the grid, so Escape then had no active
  // cell to give the keyboard to, and the grid, reselecting, scrolled to its first row.
  for (const type of ["mousedown", "mouseup", "dblclick", "contextmenu", "paste"]) {
    box.addEventListener(type, (event) => event.stopPropagation());
  }
  box.addEventListener("keydown", (event) => {
    event.stopPropagation(); // the grid's keys are not the box's
    // Tab leaves the box as Escape does: the keyboard goes back to the active cell, not on to the
    // formula bar's field next in the page (where what was typed next was lost to the sheet).
    if (event.key === "Escape" || (event.key === "Tab" && !event.ctrlKey && !event.altKey)) {
      event.preventDefault();
      box.blur();
      backToGrid();
      return;
    }
    if (event.key !== "Enter") return;
    event.preventDefault();
    const kept0 = kept;
    kept = null; // Enter may go somewhere: the view follows
    const failure = goToReference(grid, box.textContent ?? "");
    if (failure) {
      // Not a reference (names are not kept here): said beside the box, nothing moved, and the
      // text stays selected to be corrected (Escape or leaving the box shows the address again).
      if (message) message.textContent = failure;
      kept = kept0;
      selectAll();
      return;
    }
    if (message) message.textContent = "";
    box.blur(); // shows the active cell's address again
    backToGrid();
  });
  box.addEventListener("blur", () => {
    kept = null;
    restore();
  });

  // The box sits in the sheet's sticky bars, inside the scrolling sheet: the browser, bringing the
  // focused box (then its caret) into view, scrolled the sheet towards its top on a click and on
  // each character typed. Excel's view stays until Enter goes somewhere: while the box has the
  // keyboard, the sheet is kept where it was (a wheel still scrolls it).
  let kept: Map<Element, { top: number; left: number }> | null = null;
  const keep = () => {
    if (kept) return;
    kept = new Map();
    for (let element = box.parentElement; element; element = element.parentElement) {
      kept.set(element, { top: element.scrollTop, left: element.scrollLeft });
    }
  };
  box.addEventListener("mousedown", keep);
  box.addEventListener("focus", keep);
  document.addEventListener("wheel", () => (kept = null), { capture: true, passive: true });
  document.addEventListener(
    "scroll",
    (event) => {
      const at = event.target instanceof Element ? kept?.get(event.target) : undefined;
      if (!at || !(event.target instanceof Element)) return;
      event.target.scrollTop = at.top;
      event.target.scrollLeft = at.left;
    },
    true
  );
}
