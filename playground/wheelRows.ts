/**
 * The mouse wheel scrolls the sheet by rows at once, as Excel's does: three rows a notch (a notch
 * is `deltaY` 100 in Chromium and Edge, three lines in Firefox), and a trackpad's pixel deltas in
 * proportion. The browser's own wheel scrolling eased large deltas over many frames (a fast wheel
 * or a trackpad fling was slow to follow); here the view moves in the frame of the event, and the
 * grid puts in the rows now in view in the same frame.
 */
import type { GrowingGrid } from "./fillDragScroll.js";

/** Excel scrolls three rows a wheel notch (Windows' default "lines to scroll"). */
export const ROWS_PER_NOTCH = 3;
/** A wheel notch's `deltaY` in pixel mode (Chromium, Edge, Safari). */
const NOTCH_PX = 100;
/** A row's height until one is measured (jspreadsheet's default). */
const DEFAULT_ROW_HEIGHT = 24;
/** A line of a horizontal wheel in line mode, in pixels. */
const LINE_PX = 40;

/**
 * Rows a wheel event scrolls (fractions for a trackpad's small deltas), by Excel's three a notch.
 *
 * @param delta The event's `deltaY`.
 * @param mode The event's `deltaMode` (0 pixels, 1 lines, 2 pages).
 * @param rowsInView Rows a page holds (for page mode).
 */
export function wheelRows(delta: number, mode: number, rowsInView: number): number {
  if (mode === 1) return delta; // lines: Firefox gives three a notch already
  if (mode === 2) return delta * rowsInView;
  return (delta / NOTCH_PX) * ROWS_PER_NOTCH;
}

/**
 * Makes the wheel over `scroller` scroll it by rows at once (Ctrl+wheel still zooms the page).
 *
 * @example
 * ```ts
 * scrollRowsOnWheel(sheetSection, grid);
 * ```
 * @returns A function that stops.
 */
export function scrollRowsOnWheel(scroller: HTMLElement, grid: GrowingGrid): () => void {
  const wheel = (event: WheelEvent) => {
    if (event.ctrlKey) return;
    const row = scroller.querySelector("tbody tr[data-y]")?.getBoundingClientRect().height;
    const rowHeight = row && row > 0 ? row : DEFAULT_ROW_HEIGHT;
    const rowsInView = Math.max(1, Math.floor(scroller.clientHeight / rowHeight) - 1);
    // Shift+wheel scrolls sideways (the browser gives it as deltaY on some systems).
    const sideways = event.shiftKey && event.deltaX === 0;
    const down = sideways ? 0 : wheelRows(event.deltaY, event.deltaMode, rowsInView) * rowHeight;
    const across = (sideways ? event.deltaY : event.deltaX) * (event.deltaMode === 0 ? 1 : LINE_PX);
    event.preventDefault();
    scroller.scrollTop += down;
    scroller.scrollLeft += across;
    grid.showRowsInView();
  };
  scroller.addEventListener("wheel", wheel, { passive: false });
  return () => scroller.removeEventListener("wheel", wheel);
}
