import fc from "fast-check";
import type { Playground } from "../../playground/bootPlayground.js";
import { columnName } from "../../playground/excel/a1.js";
import type { MockCellValue } from "../../playground/excel/mockWorkbook.js";
import { playgroundWith } from "./playgroundTestKit.js";

/**
 * The grid's block moved over the sheet by generated sequences of moves (sideways, down, both):
 * after every move each grid cell shows the model's cell at the block's origin plus its place,
 * and an element that showed a model cell still shows it while the block holds that cell (what
 * a click after a scroll relies on: the first text typed in K22 of a fresh page went into N22
 * when a sideways move rewrote the cells in place, and a click on C195 selected C460 when a move
 * down did).
 */
describe("The grid's block moving over the sheet", () => {
  let playground: Playground | undefined;

  afterEach(() => playground?.stop());

  it("should keep every element on its model cell while the block holds it, over generated moves", async () => {
    // 40 rows × 12 columns of values naming their cell (the grid holds 12 columns, 30 rows or
    // more); moves go up to column CC, so some keep cells and some rewrite every one.
    const rows: MockCellValue[][] = Array.from({ length: 40 }, (_, row) =>
      Array.from({ length: 12 }, (_, column) => `${columnName(column)}${row + 1}`)
    );
    const valueOf = (row: number, column: number) =>
      row < 40 && column < 12 ? `${columnName(column)}${row + 1}` : "";
    playground = await playgroundWith({ Sheet1: rows });
    const { grid } = playground;
    const block = grid.blockOf("Sheet1");
    const worksheet = grid.worksheet("Sheet1");
    const elementAt = (x: number, y: number) => worksheet.getCellFromCoords(x, y) as HTMLElement;

    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            row: fc.integer({ min: 0, max: 120 }),
            column: fc.integer({ min: 0, max: 80 }),
          }),
          { minLength: 1, maxLength: 12 }
        ),
        (moves) => {
          block.moveTo(0, 0); // each sequence from A1, so a counterexample replays alone
          for (const move of moves) {
            // Which element showed which model cell before the move.
            const before = new Map<string, HTMLElement>();
            for (let y = 0; y < block.rowCount(); y++) {
              for (let x = 0; x < block.columnCount(); x++) {
                before.set(`${block.column + x},${block.row + y}`, elementAt(x, y));
              }
            }
            block.moveTo(move.row, move.column);
            const data = worksheet.options.data as unknown[][];
            for (let y = 0; y < block.rowCount(); y++) {
              for (let x = 0; x < block.columnCount(); x++) {
                const address = `${columnName(block.column + x)}${block.row + y + 1}`;
                const element = elementAt(x, y);
                const shows = [
                  element.dataset.cell,
                  element.textContent,
                  element.getAttribute("data-x"),
                  element.getAttribute("data-y"),
                  data[y][x],
                ];
                const value = valueOf(block.row + y, block.column + x);
                const expected = [address, value, String(x), String(y), value];
                if (shows.join("|") !== expected.join("|")) {
                  throw new Error(
                    `grid cell (${x}, ${y}) shows ${shows.join("|")}, not ${address}`
                  );
                }
                const earlier = before.get(`${block.column + x},${block.row + y}`);
                // A move keeps the elements of the cells the block still holds.
                if (earlier && earlier !== element) {
                  throw new Error(`${address} is shown by another element after the move`);
                }
              }
            }
          }
        }
      ),
      { numRuns: 40 }
    );
  });
});
