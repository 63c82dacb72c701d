/**
 * Row virtualisation of the grid: of the sheet's 1,048,576 rows, only those of the grid's block
 * (SheetBlock) near the view are in the page; the rows above and below are two spacers of their
 * height, so the scroll bar, the fill handle's drag and the keyboard move over every row while the
 * browser lays out about a hundred. jspreadsheet keeps every row of the block (a drag may grow it
 * to thousands); it already leaves rows outside its table alone (it does so for its own lazy
 * loading), so inserting, deleting, sorting and selecting work on rows not in the page.
 */
import type { WorksheetInstance } from "jspreadsheet-ce";
import { LAST_ROW } from "../excel/a1.js";
import type { SheetBlock } from "./sheetBlock.js";

/** Rows kept in the page above and below the view. */
const OVERSCAN = 100;
/** How near the edge of the rows in the page the view may come before they move. */
const MARGIN = 25;
/** A row's height until one was measured (jspreadsheet's default). */
const DEFAULT_ROW_HEIGHT = 24;

/** jspreadsheet's parts of a worksheet that the window moves (not in its public types). */
interface WorksheetParts {
  table: HTMLTableElement;
  thead: HTMLElement;
  tbody: HTMLElement;
  rows: { element: HTMLTableRowElement }[];
  selectedCell?: number[];
}

/**
 * The rows of one worksheet shown in a scrolling view.
 *
 * @example
 * ```ts
 * const window = new RowWindow(worksheet, sheetSection);
 * sheetSection.addEventListener("scroll", () => window.sync());
 * ```
 */
export class RowWindow {
  private first = 0;
  private last = 0;
  private count = -1;
  /** The block's first row (the model's) when the rows were last put in the page. */
  private origin = 0;
  private rowHeight = 0;
  /** The row height the spacers were last given. */
  private spacedHeight = 0;
  private readonly above: HTMLTableCellElement;
  private readonly below: HTMLTableCellElement;

  /**
   * @param worksheet The worksheet whose rows are windowed.
   * @param scroller The element that scrolls it.
   * @param block Which model rows the worksheet's rows show.
   */
  constructor(
    readonly worksheet: WorksheetInstance,
    private readonly scroller: HTMLElement,
    readonly block: SheetBlock
  ) {
    const parts = this.parts();
    this.above = spacer(parts.table, parts.tbody, "playground-rows-above");
    this.below = spacer(parts.table, null, "playground-rows-below");
  }

  /** The height of a row, in pixels (the last one measured when no row is in the page). */
  height(): number {
    // Measured each time: row 1, measured once while the page was still settling, was 26 px where
    // the rows settled at 24, and every place counted from it drifted 2 px a row (C200, gone to,
    // showed most of C199 above it).
    const shown = this.parts().tbody.firstElementChild as HTMLElement | null;
    const measured = shown?.getBoundingClientRect().height ?? 0;
    if (measured > 0) this.rowHeight = measured;
    return this.rowHeight || DEFAULT_ROW_HEIGHT;
  }

  /** Whether the worksheet is shown (its tab is the one chosen). */
  shown(): boolean {
    return this.parts().table.offsetParent !== null;
  }

  /** The model's rows and columns in the view (zero-based, last ones included). */
  inView(): { top: number; bottom: number; left: number; right: number } {
    const height = this.height();
    const top = this.scroller.scrollTop - this.bodyTop();
    const left = this.scroller.scrollLeft - this.bodyLeft();
    return {
      top: Math.max(0, Math.floor(top / height)),
      bottom: Math.min(LAST_ROW, Math.ceil((top + this.scroller.clientHeight) / height)),
      left: this.block.columnAt(Math.max(0, left)),
      right: this.block.columnAt(Math.max(0, left + this.scroller.clientWidth)),
    };
  }

  /** Where column A starts, in the scroller's content. */
  private bodyLeft(): number {
    const { table } = this.parts();
    const header = this.parts().thead.querySelector("td");
    const viewLeft =
      this.scroller === document.scrollingElement ? 0 : this.scroller.getBoundingClientRect().left;
    const tableLeft = table.getBoundingClientRect().left - viewLeft + this.scroller.scrollLeft;
    return tableLeft - this.block.columnLeft(this.block.column) + (header?.offsetWidth ?? 50);
  }

  /** Where the model's row 0 starts, in the scroller's content. */
  private bodyTop(): number {
    const { thead, table } = this.parts();
    const tableTop = table.getBoundingClientRect().top - this.viewTop() + this.scroller.scrollTop;
    return tableTop + thead.offsetHeight;
  }

  /** Where the block's first row starts, in the scroller's content. */
  private blockTop(): number {
    return this.bodyTop() + this.block.row * this.height();
  }

  /** The top of the scroller's view on screen (0 when the page itself scrolls). */
  private viewTop(): number {
    return this.scroller === document.scrollingElement
      ? 0
      : this.scroller.getBoundingClientRect().top;
  }

  /**
   * Puts the rows near the view in the page (after a scroll, or rows added, removed or sorted).
   *
   * @param force Rebuild even when the view is still well inside the rows in the page.
   */
  sync(force = false): void {
    const { tbody, rows, table } = this.parts();
    if (table.offsetParent === null) return; // a sheet not shown: synced when its tab is chosen
    const height = this.height();
    const top = this.scroller.scrollTop - this.blockTop();
    const firstSeen = Math.min(rows.length, Math.max(0, Math.floor(top / height)));
    const lastSeen = Math.max(
      0,
      Math.min(rows.length, Math.ceil((top + this.scroller.clientHeight) / height))
    );
    const inside =
      (firstSeen >= this.first + MARGIN || this.first === 0) &&
      (lastSeen <= this.last - MARGIN || this.last === rows.length);
    // A block that moved keeps its rows (their cells were rewritten): the spacers change, as they
    // do when the rows' height did.
    const moved = this.origin !== this.block.row || this.spacedHeight !== height;
    if (!force && !moved && inside && this.count === rows.length && this.attachedAsExpected(tbody))
      return;
    const first = Math.max(0, firstSeen - OVERSCAN);
    const last = Math.min(rows.length, Math.max(lastSeen, firstSeen) + OVERSCAN);
    // A block moved up or down moved its rows' elements to other places (SheetBlock): all are
    // put in the page again.
    const kept =
      !force &&
      this.origin === this.block.row &&
      this.count === rows.length &&
      this.attachedAsExpected(tbody);
    if (kept && first < this.last && last > this.first) {
      // Overlapping ranges: only the rows that leave or come in move (less to lay out again).
      for (let y = this.first; y < first; y++) rows[y].element.remove();
      for (let y = last; y < this.last; y++) rows[y].element.remove();
      tbody.prepend(...rows.slice(first, Math.min(this.first, last)).map((row) => row.element));
      tbody.append(...rows.slice(Math.max(this.last, first), last).map((row) => row.element));
    } else {
      tbody.replaceChildren(...rows.slice(first, last).map((row) => row.element));
    }
    this.first = first;
    this.last = last;
    this.count = rows.length;
    this.origin = this.block.row;
    this.spacedHeight = height;
    // Rows or columns added or removed: their headers show the model's numbers and letters.
    this.block.label();
    this.above.style.height = `${(this.block.row + this.first) * height}px`;
    this.below.style.height = `${(LAST_ROW + 1 - this.block.row - this.last) * height}px`;
    const columns = String(this.parts().thead.querySelector("tr")?.children.length ?? 1);
    this.above.colSpan = Number(columns);
    this.below.colSpan = Number(columns);
  }

  /**
   * Scrolls so that the model's cell (row, column) is in view when none of it is (a jump:
   * Ctrl+Down, Ctrl+End, the Name Box); a cell partly in view stays where it is, so a click never
   * moves the cell under the pointer.
   *
   * @param atTopLeft Puts a cell out of view at the view's top left (Excel's Go To and Name Box)
   *   rather than at the nearest edge.
   */
  reveal(row: number, column?: number, atTopLeft = false): void {
    const height = this.height();
    const rowTop = this.bodyTop() + row * height;
    // The column headers' cells stick below the bars (the header row itself scrolls away).
    const header = this.parts().thead.querySelector("td") ?? this.parts().thead;
    const covered = header.getBoundingClientRect().bottom - this.viewTop();
    const viewTop = this.scroller.scrollTop + Math.max(0, covered);
    const viewBottom = this.scroller.scrollTop + this.scroller.clientHeight;
    const rowOut = rowTop + height <= viewTop || rowTop >= viewBottom;
    if (atTopLeft) {
      if (!rowOut && (column === undefined || !this.columnOut(column))) return;
      if (column !== undefined) this.scroller.scrollLeft = this.columnStart(column);
      this.scroller.scrollTop = rowTop - Math.max(0, covered);
      this.sync();
      // The rows now in the page and the headers stuck below the bars: the row's own place.
      const element = this.parts().rows[row - this.block.row]?.element;
      if (element?.isConnected) {
        const off = element.getBoundingClientRect().top - header.getBoundingClientRect().bottom;
        if (Math.abs(off) >= 1) {
          this.scroller.scrollTop += off;
          this.sync();
        }
      }
      return;
    }
    if (column !== undefined) this.revealColumn(column);
    if (rowTop + height <= viewTop) this.scroller.scrollTop -= viewTop - rowTop;
    else if (rowTop >= viewBottom) this.scroller.scrollTop += rowTop + height - viewBottom;
    else return;
    this.sync();
  }

  /** The scroll position (left) that puts a model column first right of the row headers. */
  private columnStart(column: number): number {
    const header = this.parts().tbody.querySelector("td")?.offsetWidth ?? 50;
    return this.bodyLeft() + this.block.columnLeft(column) - header;
  }

  /** Whether none of a model column is in view. */
  private columnOut(column: number): boolean {
    const left = this.bodyLeft() + this.block.columnLeft(column);
    const right = left + this.block.widthOf(column);
    const header = this.parts().tbody.querySelector("td")?.offsetWidth ?? 50;
    return (
      right <= this.scroller.scrollLeft + header ||
      left >= this.scroller.scrollLeft + this.scroller.clientWidth
    );
  }

  private revealColumn(column: number): void {
    const left = this.bodyLeft() + this.block.columnLeft(column);
    const right = left + this.block.widthOf(column);
    const header = this.parts().tbody.querySelector("td")?.offsetWidth ?? 50;
    const viewLeft = this.scroller.scrollLeft + header;
    const viewRight = this.scroller.scrollLeft + this.scroller.clientWidth;
    if (right <= viewLeft) this.scroller.scrollLeft -= viewLeft - left;
    else if (left >= viewRight) this.scroller.scrollLeft += right - viewRight;
  }

  /** Whether jspreadsheet left the page's rows as this window put them. */
  private attachedAsExpected(tbody: HTMLElement): boolean {
    return tbody.childElementCount === this.last - this.first;
  }

  private parts(): WorksheetParts {
    return this.worksheet as unknown as WorksheetParts;
  }
}

/** An empty row group of one cell whose height stands for the rows not in the page. */
function spacer(
  table: HTMLTableElement,
  before: HTMLElement | null,
  className: string
): HTMLTableCellElement {
  const group = document.createElement("tbody");
  group.className = className;
  group.setAttribute("aria-hidden", "true");
  const row = group.insertRow();
  const cell = row.insertCell();
  cell.className = "playground-rows-spacer";
  // Not a cell of the sheet: no border, no row header look, no clicks.
  cell.style.cssText = "padding: 0; border: 0; background: transparent; pointer-events: none";
  table.insertBefore(group, before);
  return cell;
}
