/**
 * The grid's right-click menu in Excel's words, with only what the playground does: jspreadsheet's
 * own menu offered "Save as" (a CSV download), "About" (jspreadsheet's version), comments (not
 * kept in the workbook), "Rename this column" and inserts "after", which Excel has not.
 *
 * Excel's names are those of its ribbon (Home > Insert > "Insert Sheet Rows", Home > Delete >
 * "Delete Sheet Columns", Data > "Sort A to Z") and of its cell menu ("Copy", "Paste").
 */
import type { ContextMenuItem, SpreadsheetOptions, WorksheetInstance } from "jspreadsheet-ce";

/** jspreadsheet's items (its English titles) as Excel names them; an item not named here goes. */
const EXCEL_TITLES: Readonly<Record<string, string>> = {
  "Insert a new row before": "Insert Sheet Rows",
  "Delete selected rows": "Delete Sheet Rows",
  "Insert a new column before": "Insert Sheet Columns",
  "Delete selected columns": "Delete Sheet Columns",
  "Order ascending": "Sort A to Z",
  "Order descending": "Sort Z to A",
  "Copy...": "Copy",
  "Paste...": "Paste",
};

/**
 * The menu's items: jspreadsheet's default `items` kept and renamed by Excel's names, the others
 * taken out; `false` (no menu) when none is left.
 */
export function excelMenuItems(
  instance: WorksheetInstance,
  _column: unknown,
  _row: unknown,
  _event: unknown,
  items: ContextMenuItem[]
): ContextMenuItem[] | false {
  const kept: ContextMenuItem[] = [];
  for (const item of items) {
    if (item.type === "line") {
      // A separator between two kept items only.
      if (kept.length > 0 && kept[kept.length - 1].type !== "line") kept.push(item);
      continue;
    }
    const title = EXCEL_TITLES[item.title];
    if (title) kept.push({ ...item, title, shortcut: item.shortcut?.replace(/ \+ /g, "+") });
  }
  while (kept.length > 0 && kept[kept.length - 1].type === "line") kept.pop();
  // jSuites builds the menu from the items once this returns (in the same task).
  const menu = (instance as unknown as { parent?: { contextMenu?: HTMLElement } }).parent
    ?.contextMenu;
  if (menu && kept.length > 0) queueMicrotask(() => asMenu(menu));
  return kept.length > 0 ? kept : false;
}

/**
 * The built menu as a menu for the keyboard and screen readers: jSuites' header for small
 * screens (a hidden "Menu" title and "close" link, read out as the menu's first item) taken out,
 * and its items and separators named as such.
 */
function asMenu(menu: HTMLElement): void {
  menu.querySelector(":scope > .header")?.remove();
  menu.setAttribute("role", "menu");
  for (const child of menu.children) {
    child.setAttribute("role", child.tagName === "HR" ? "separator" : "menuitem");
  }
}

/**
 * jspreadsheet's `contextMenu` option with {@link excelMenuItems} (jspreadsheet shows no menu when
 * the option answers `false`, which its types leave out).
 *
 * @example
 * ```ts
 * jspreadsheet(element, { contextMenu: excelContextMenu, worksheets });
 * ```
 */
export const excelContextMenu = excelMenuItems as unknown as NonNullable<
  SpreadsheetOptions["contextMenu"]
>;
