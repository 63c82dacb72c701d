/** The private state of a `MockWorkbook`, shared with the modules that build its Office proxies. */
import type { CellBlock } from "./a1.js";
import type { MockCell } from "./mockWorkbookTypes.js";

/** The cells, spills, names, hidden rows and sheet ids of a mock workbook (owned by `MockWorkbook`). */
export interface WorkbookState {
  /** Sheet name → row → column → cell. */
  readonly sheets: Map<string, Map<number, Map<number, MockCell>>>;
  /** Dynamic-array results: anchor cell ("Sheet1!B2") → the block its formula spills into. */
  readonly spills: Map<string, CellBlock>;
  /**
   * Workbook-scoped names → the block they refer to. As in Excel, structural edits move and
   * resize them (an insert inside a named block grows it, a delete shrinks it); a sort moves
   * cells inside the block, not the name.
   */
  readonly names: Map<string, { sheet: string; block: CellBlock } | undefined>;
  /** Hidden (or filtered-out) rows per sheet. */
  readonly hidden: Map<string, Set<number>>;
  /** Sheet name → its id, which, as in Excel, stays the same when the sheet is renamed. */
  readonly sheetIds: Map<string, string>;
  /** Sheet name → its visibility ("Visible" unless the add-in changed it). */
  readonly visibility: Map<string, string>;
}

/** An empty state: no sheets. */
export function emptyWorkbookState(): WorkbookState {
  return {
    sheets: new Map(),
    spills: new Map(),
    names: new Map(),
    hidden: new Map(),
    sheetIds: new Map(),
    visibility: new Map(),
  };
}

/** The sheet's name for a name or an id (Excel's `worksheets.getItem` takes either). */
export function sheetNamed(state: WorkbookState, key: string): string {
  for (const [name, id] of state.sheetIds) if (id === key) return name;
  return key;
}
