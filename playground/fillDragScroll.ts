/**
 * A drag in the grid (the fill handle, or a selection) that goes beyond the bottom of the sheet's
 * view scrolls it on, as Excel's sheet goes on below the window, and the grid holds more of the
 * sheet as the drag goes: one drag fills a column far down (and so reaches the spending guard's
 * question by filling one column).
 *
 * As in Excel, the view scrolls only while the pointer is beyond the edge, faster the farther
 * beyond it is; back inside the view, the scroll stops at once and the drag ends on the row under
 * the pointer. (It used to scroll already in the view's last 40 pixels, faster the longer it was
 * held: a drag could not stop on the last rows in view, nor slow down near its row.)
 */

/** What the drag needs of the grid. */
export interface GrowingGrid {
  /**
   * Puts the rows now in view in the page (the grid draws only the rows near the view, and holds
   * more of the sheet when a drag passes the last row it holds).
   */
  showRowsInView(): void;
}

/**
 * The edge: the view's last few pixels count as beyond it, so that a pointer held against the
 * screen's bottom (a maximised window) still scrolls, slowly.
 */
const EDGE_PX = 6;
/** Pixels a frame: slowest just beyond the edge (about 8 rows a second)... */
const SLOWEST_PX = 2;
/** ...growing with the square of the distance beyond it, to the fastest. */
const SPEED_PER_PX2 = 0.03;
const FASTEST_PX = 1500;
/** How often the grid hears of the cell under the pointer while the drag scrolls. */
const TELL_EVERY_MS = 100;

/**
 * Makes drags in `gridElement` scroll `scroller` and grow the grid at its bottom edge.
 *
 * @example
 * ```ts
 * extendDragsDownward(document.getElementById("grid")!, sheetSection, grid);
 * ```
 * @returns A function that stops.
 */
export function extendDragsDownward(
  gridElement: HTMLElement,
  scroller: HTMLElement,
  grid: GrowingGrid
): () => void {
  let dragging = false;
  let pointer: { x: number; y: number } | undefined;
  let frame: number | undefined;
  let toldAt = 0;

  const step = () => {
    frame = undefined;
    if (!dragging || !pointer) return;
    // The cells' bottom edge: a horizontal scroll bar below them is beyond it, as in Excel.
    const bottom =
      scroller.getBoundingClientRect().top + scroller.clientTop + scroller.clientHeight;
    const beyond = pointer.y - (bottom - EDGE_PX);
    if (beyond <= 0) return;
    scroller.scrollTop += scrollStep(beyond);
    // The grid holds more rows of the sheet when the view passes the last it holds.
    grid.showRowsInView();
    // The cell now under the pointer is where the drag is: the grid follows mouseover. It is told
    // a few times a second (it marks every cell of the range each time it is told).
    const now = performance.now();
    if (now - toldAt < TELL_EVERY_MS) {
      frame = requestAnimationFrame(step);
      return;
    }
    toldAt = now;
    const under = document.elementFromPoint(pointer.x, Math.min(pointer.y, bottom - 2));
    under?.dispatchEvent(
      new MouseEvent("mouseover", {
        bubbles: true,
        buttons: 1,
        clientX: pointer.x,
        clientY: pointer.y,
      })
    );
    frame = requestAnimationFrame(step);
  };

  const down = (event: MouseEvent) => {
    if (event.button !== 0) return;
    const target = event.target as Element | null;
    dragging = Boolean(target?.closest(".jss_corner, td"));
  };
  const move = (event: MouseEvent) => {
    if (!dragging) return;
    if ((event.buttons & 1) === 0) {
      dragging = false;
      return;
    }
    pointer = { x: event.clientX, y: event.clientY };
    if (frame === undefined) frame = requestAnimationFrame(step);
  };
  const up = () => {
    dragging = false;
    pointer = undefined;
  };
  gridElement.addEventListener("mousedown", down, true);
  window.addEventListener("mousemove", move);
  window.addEventListener("mouseup", up);
  return () => {
    gridElement.removeEventListener("mousedown", down, true);
    window.removeEventListener("mousemove", move);
    window.removeEventListener("mouseup", up);
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
}

/**
 * Pixels the view scrolls in a frame with the pointer `beyond` pixels past the edge: a few rows a
 * second just past it, about 12 rows a frame 100 pixels past it, 60 rows a frame (the fastest)
 * from about 220 pixels past it.
 */
export function scrollStep(beyond: number): number {
  return Math.min(FASTEST_PX, SLOWEST_PX + SPEED_PER_PX2 * beyond * beyond);
}
