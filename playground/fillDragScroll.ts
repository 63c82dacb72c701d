/**
 * A drag in the grid (the fill handle, or a selection) that reaches the bottom of the sheet's view
 * scrolls it on, as Excel's sheet goes on below the window, and the grid holds more of the sheet
 * as the drag goes: one drag fills a column far down (and so reaches the spending guard's
 * question by filling one column). Held deep in the edge, the scroll speeds up
 * (as Excel's does), so a drag reaches row 10,000 in seconds; near the edge's inner side it stays
 * slow, to stop on a row.
 */

/** What the drag needs of the grid. */
export interface GrowingGrid {
  /**
   * Puts the rows now in view in the page (the grid draws only the rows near the view, and holds
   * more of the sheet when a drag passes the last row it holds).
   */
  showRowsInView(): void;
}

const EDGE_PX = 40;
/** Deeper than this into the edge, the scroll speeds up once held there for a while. */
const DEEP_PX = 30;
const STEADY_FRAMES = 30;
/** How much faster each frame held deep scrolls, and the fastest (pixels a frame). */
const SPEED_UP = 1.06;
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
  let heldDeep = 0;
  let toldAt = 0;

  const step = () => {
    frame = undefined;
    if (!dragging || !pointer) return;
    const bottom = scroller.getBoundingClientRect().bottom;
    const depth = pointer.y - (bottom - EDGE_PX);
    if (depth <= 0) return;
    heldDeep = depth > DEEP_PX ? heldDeep + 1 : 0;
    const distance = Math.min(
      FASTEST_PX,
      (10 + Math.min(depth, EDGE_PX) * 4) * SPEED_UP ** Math.max(0, heldDeep - STEADY_FRAMES)
    );
    scroller.scrollTop += distance;
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
    heldDeep = 0;
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
