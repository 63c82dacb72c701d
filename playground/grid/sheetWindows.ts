/**
 * The row windows of every sheet of the grid (see RowWindow), moved when the view scrolls or
 * changes size.
 */
import type { WorksheetInstance } from "jspreadsheet-ce";
import { RowWindow } from "./rowWindow.js";

/**
 * The sheets' row windows over one scrolling view.
 *
 * @example
 * ```ts
 * const windows = new SheetWindows(gridElement);
 * windows.add("Reviews", worksheet);
 * ```
 */
export class SheetWindows {
  private readonly windows = new Map<string, RowWindow>();
  private readonly scroller: HTMLElement;

  /**
   * @param element The grid's element: its view is the sheet section that scrolls it (the
   *   page's `.playground-sheet`), else the page.
   */
  constructor(element: HTMLElement) {
    this.scroller =
      element.closest<HTMLElement>(".playground-sheet") ??
      (document.scrollingElement as HTMLElement);
    const target = this.scroller === document.scrollingElement ? window : this.scroller;
    target.addEventListener("scroll", () => this.sync(), { passive: true });
    window.addEventListener("resize", () => this.sync());
  }

  /** Windows the rows of a sheet's worksheet. */
  add(sheet: string, worksheet: WorksheetInstance): void {
    const window = new RowWindow(worksheet, this.scroller);
    this.windows.set(sheet, window);
    window.sync(true);
  }

  /**
   * Puts the rows near the view in the page, for the sheet shown.
   *
   * @param force Rebuild even when the view is well inside the rows in the page (after rows were
   *   inserted, deleted or sorted).
   */
  sync(force = false): void {
    for (const window of this.windows.values()) window.sync(force);
  }

  /** Scrolls a sheet's row `y` into view. */
  reveal(sheet: string, y: number): void {
    this.windows.get(sheet)?.reveal(y);
  }
}
