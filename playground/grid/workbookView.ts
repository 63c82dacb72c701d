/**
 * What a saved workbook keeps of its window besides its cells: the sheet shown, and each sheet's
 * selection and scroll position. Excel saves them in the file (ISO/IEC 29500-1 §18.3.1.87
 * `sheetView`, "A single sheet view definition", with its `topLeftCell` and its `selection`; the
 * `workbookView`'s `activeTab`), so a workbook reopens on the sheet and selection it was saved
 * with, each sheet scrolled as it was; the playground keeps them beside its saved document
 * (savedDocument.ts).
 */
import { defer, EMPTY, merge, type Observable } from "rxjs";
import type { GridSelection, ModelSelection } from "./gridSelection.js";
import type { ScrollPosition, SheetWindows } from "./sheetWindows.js";

/** One sheet's view: its selection and where it is scrolled. */
export interface SheetView {
  name: string;
  selection: ModelSelection;
  scroll: ScrollPosition;
}

/** The workbook's window: the sheet shown and every sheet's view (plain data, saved as is). */
export interface WorkbookView {
  activeSheet: string;
  sheets: SheetView[];
}

/** What the views need of the grid. */
export interface ViewedGrid {
  selection: GridSelection;
  windows(): SheetWindows | undefined;
  sheetNames(): string[];
  activeSheet(): string;
  /** Shows a sheet (its tab chosen), its view as it was left. */
  show(sheet: string): void;
}

/**
 * The grid's views: read to be saved, restored when the workbook is reopened.
 *
 * @example
 * ```ts
 * const views = new WorkbookViews(grid);
 * views.changes.subscribe(() => save(views.current()));
 * ```
 */
export class WorkbookViews {
  /** Emits when the view may have changed (a selection, a scroll, a sheet shown). */
  readonly changes: Observable<unknown>;

  constructor(
    private readonly grid: ViewedGrid,
    selections: Observable<unknown>
  ) {
    this.changes = merge(
      selections,
      defer(() => grid.windows()?.scrollChanges ?? EMPTY)
    );
  }

  /** The view now. */
  current(): WorkbookView {
    const windows = this.grid.windows();
    return {
      activeSheet: this.grid.activeSheet(),
      sheets: this.grid.sheetNames().map((name) => ({
        name,
        selection: structuredClone(this.grid.selection.of(name)),
        scroll: windows?.scrollOf(name) ?? { top: 0, left: 0 },
      })),
    };
  }

  /**
   * Restores a saved view: each sheet's selection and scroll, then the sheet that was shown.
   * What does not fit the workbook (a sheet gone, a value not a number) is left out.
   */
  restore(saved: unknown): void {
    const view = saved as Partial<WorkbookView> | undefined;
    const names = this.grid.sheetNames();
    for (const sheet of Array.isArray(view?.sheets) ? view.sheets : []) {
      if (!names.includes(sheet?.name) || !isSelection(sheet.selection)) continue;
      this.grid.selection.restore(sheet.name, sheet.selection);
      const { top, left } = sheet.scroll ?? {};
      if (isCount(top) && isCount(left)) this.grid.windows()?.setScroll(sheet.name, { top, left });
    }
    const active = view?.activeSheet;
    this.grid.show(typeof active === "string" && names.includes(active) ? active : names[0]);
  }
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function isCell(value: unknown): value is { row: number; column: number } {
  const cell = value as { row?: unknown; column?: unknown } | undefined;
  return isCount(cell?.row) && isCount(cell?.column);
}

function isSelection(value: unknown): value is ModelSelection {
  const selection = value as Partial<ModelSelection> | undefined;
  return (
    isCell(selection?.anchor) &&
    isCell(selection?.end) &&
    (selection?.active === undefined || isCell(selection.active))
  );
}
