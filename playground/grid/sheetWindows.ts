/**
 * The windows of every sheet of the grid over one scrolling view: which block of the model each
 * worksheet holds (SheetBlock), and which of its rows are in the page (RowWindow), moved when the
 * view scrolls or changes size. A view that leaves the block moves the block there, except while
 * a mouse button is held (a drag: the fill handle, a selection) or a cell is edited: jspreadsheet
 * then holds the grid's coordinates, so the block grows downward instead of moving.
 */
import type { WorksheetInstance } from "jspreadsheet-ce";
import { Observable, Subject } from "rxjs";
import { LAST_COLUMN, LAST_ROW } from "../excel/a1.js";
import { RowWindow } from "./rowWindow.js";
import { appendRows } from "./quietly.js";
import { BLOCK_ROWS, type SheetBlock } from "./sheetBlock.js";

/** Rows and columns kept between the view and the block's edges before the block moves. */
const ROW_MARGIN = 10;
const COLUMN_MARGIN = 1;
/** Rows a drag adds at once when it reaches the block's last rows. */
const GROW_ROWS = 200;

/**
 * The sheets' windows over one scrolling view.
 *
 * @example
 * ```ts
 * const windows = new SheetWindows(gridElement);
 * windows.add("Reviews", worksheet, block);
 * ```
 */
export class SheetWindows {
  private readonly windows = new Map<string, RowWindow>();
  private readonly scroller: HTMLElement;
  private buttonsHeld = false;
  /** Each sheet's scroll position, as it was last shown (Excel keeps a view per sheet). */
  private readonly scrolls = new Map<string, ScrollPosition>();
  /** The sheet whose view the scroller shows now. */
  private shownSheet: string | undefined;
  private readonly scrolled = new Subject<void>();

  /** Emits after the view scrolled. */
  readonly scrollChanges: Observable<void> = this.scrolled.asObservable();

  /**
   * @param element The grid's element: its view is the sheet section that scrolls it (the
   *   page's `.playground-sheet`), else the page.
   * @param moved Called after a block moved (the grid's selection follows the model's).
   */
  constructor(
    element: HTMLElement,
    private readonly moved: (sheet: string) => void = () => undefined
  ) {
    this.scroller =
      element.closest<HTMLElement>(".playground-sheet") ??
      (document.scrollingElement as HTMLElement);
    const target = this.scroller === document.scrollingElement ? window : this.scroller;
    target.addEventListener("scroll", () => this.scrolledNow(), { passive: true });
    window.addEventListener("resize", () => this.sync());
    window.addEventListener("mousedown", (event) => (this.buttonsHeld = event.buttons !== 0), true);
    window.addEventListener("mouseup", (event) => {
      this.buttonsHeld = event.buttons !== 0;
      // The drag is over: a view left beyond the block (a wheel during the drag) is caught up.
      setTimeout(() => this.sync());
    });
  }

  /** Windows the rows of a sheet's worksheet, which holds `block` of the model. */
  add(sheet: string, worksheet: WorksheetInstance, block: SheetBlock): void {
    const window = new RowWindow(worksheet, this.scroller, block);
    this.windows.set(sheet, window);
    block.label();
    window.sync(true);
  }

  /**
   * A sheet's tab was chosen: the view goes back to where that sheet was left (its top left the
   * first time), as Excel's does, instead of staying where the sheet left behind was.
   */
  showSheet(sheet: string): void {
    if (sheet !== this.shownNow()) {
      const { top, left } = this.scrolls.get(sheet) ?? { top: 0, left: 0 };
      this.shownSheet = sheet;
      this.scroller.scrollTop = top;
      this.scroller.scrollLeft = left;
    }
    this.sync(true);
  }

  /** Where a sheet's view is scrolled (where it was left, for a sheet not shown). */
  scrollOf(sheet: string): ScrollPosition {
    if (sheet === this.shownNow()) {
      return { top: this.scroller.scrollTop, left: this.scroller.scrollLeft };
    }
    return this.scrolls.get(sheet) ?? { top: 0, left: 0 };
  }

  /** Sets where a sheet's view is scrolled (a reopened workbook), now if it is shown. */
  setScroll(sheet: string, at: ScrollPosition): void {
    this.scrolls.set(sheet, { top: at.top, left: at.left });
    if (sheet !== this.shownNow()) return;
    this.scroller.scrollTop = at.top;
    this.scroller.scrollLeft = at.left;
    this.sync(true);
  }

  /**
   * The sheet whose view the scroller shows: the one last shown by `showSheet`, else the one
   * shown at first (the first tab).
   */
  private shownNow(): string | undefined {
    this.shownSheet ??= [...this.windows].find(([, window]) => window.shown())?.[0];
    return this.shownSheet;
  }

  /**
   * A tab is being chosen (a button pressed on the tabs, before jspreadsheet shows another
   * sheet): the shown sheet's scroll position is kept as it is now. Not later: once another
   * sheet is shown, the view is moved by that sheet's height, not by a person.
   */
  leaving(): void {
    const shown = this.shownNow();
    if (shown !== undefined) this.scrolls.set(shown, this.scrollOf(shown));
  }

  /** The view scrolled. */
  private scrolledNow(): void {
    this.sync();
    this.scrolled.next();
  }

  /** The block a sheet's worksheet holds. */
  blockOf(sheet: string): SheetBlock | undefined {
    return this.windows.get(sheet)?.block;
  }

  /**
   * Moves the sheet shown's block to the view when the view left it, then puts the rows near the
   * view in the page.
   *
   * @param force Rebuild even when the view is well inside the rows in the page (after rows were
   *   inserted, deleted or sorted).
   */
  sync(force = false): void {
    for (const [sheet, window] of this.windows) {
      if (window.shown()) this.follow(sheet, window);
      // A cell being edited keeps its row in the page (a rebuild would close its editor); a
      // block that moved or grew keeps its rows' elements, so it needs no rebuild either.
      window.sync(force && !isEditing(window));
    }
  }

  /**
   * Moves a sheet's block so that it holds the model's cell (row, column) with the rows and
   * columns around it, when it does not.
   */
  hold(sheet: string, row: number, column: number): void {
    const window = this.windows.get(sheet);
    if (!window || window.block.holds(row, column)) return;
    const { block } = window;
    const rowHeld = row >= block.row && row < block.row + block.rowCount();
    const columnHeld = column >= block.column && column < block.column + block.columnCount();
    block.moveTo(
      rowHeld ? block.row : row - Math.floor(BLOCK_ROWS / 2),
      columnHeld ? block.column : column - Math.floor(block.columnCount() / 2)
    );
    this.moved(sheet);
    window.sync(true);
  }

  /**
   * Scrolls a sheet's model cell (row, column) into view; `atTopLeft` puts a cell out of view at
   * the view's top left (Go To, the Name Box).
   */
  reveal(sheet: string, row: number, column?: number, atTopLeft = false): void {
    this.windows.get(sheet)?.reveal(row, column, atTopLeft);
  }

  /** Moves the block to the view when the view left it (grows it during a drag). */
  private follow(sheet: string, window: RowWindow): void {
    const { block } = window;
    const view = window.inView();
    const rows = block.rowCount();
    // The block may move unless a drag or an edit holds the grid's coordinates.
    const free = !this.buttonsHeld && !isEditing(window);
    // A view wider than the block (a wide screen): the block takes more columns.
    const wanted = view.right - view.left + 1 + 2 * COLUMN_MARGIN + 2;
    if (free && wanted > block.columnCount()) {
      block.addColumns(wanted - block.columnCount());
      this.moved(sheet);
    }
    const columns = block.columnCount();
    const lastRow = block.row + rows - 1;
    const lastColumn = block.column + columns - 1;
    const rowsOut =
      (view.top < block.row + ROW_MARGIN && block.row > 0) ||
      (view.bottom > lastRow - ROW_MARGIN && lastRow < LAST_ROW);
    const columnsOut =
      (view.left < block.column + COLUMN_MARGIN && block.column > 0) ||
      (view.right > lastColumn - COLUMN_MARGIN && lastColumn < LAST_COLUMN);
    if (!rowsOut && !columnsOut) return;
    if (!free) {
      // A drag downward past the block: the block grows (jspreadsheet's coordinates still hold),
      // never past the sheet's last row.
      if (view.bottom > lastRow - ROW_MARGIN && view.top >= block.row && lastRow < LAST_ROW) {
        const grow = Math.max(GROW_ROWS, view.bottom + ROW_MARGIN - lastRow);
        appendRows(window.worksheet, Math.min(grow, LAST_ROW - lastRow));
        block.label();
      }
      return;
    }
    const viewRows = view.bottom - view.top + 1;
    const viewColumns = view.right - view.left + 1;
    const top = rowsOut ? view.top - Math.floor((BLOCK_ROWS - viewRows) / 2) : block.row;
    const left = columnsOut
      ? view.left - Math.max(0, Math.floor((columns - viewColumns) / 2))
      : block.column;
    if (block.moveTo(top, left)) this.moved(sheet);
  }
}

/** Where a view is scrolled, in pixels from the sheet's top left. */
export interface ScrollPosition {
  top: number;
  left: number;
}

/** Whether a cell of the window's worksheet is being edited. */
function isEditing(window: RowWindow): boolean {
  return Boolean((window.worksheet as unknown as { edition?: unknown }).edition);
}
