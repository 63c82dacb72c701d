import fc from "fast-check";
import type { Page } from "playwright-core";
import {
  cellSelector,
  clickCell,
  shown,
  type OpenPlayground,
  until,
  openReadyPlayground,
  closeReadyPlayground,
} from "./support/staticPlayground.js";
import { activeCell, modelCell } from "./support/gridPage.js";

function must(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

/** One gesture of a person pointing at cells while typing a formula in its cell. */
type Gesture =
  | { kind: "click" | "shiftClick"; cell: string }
  | { kind: "drag"; from: string; to: string }
  | { kind: "arrow"; key: string; shift: boolean }
  | { kind: "f4" };

const cell = fc
  .record({ column: fc.constantFrom("A", "B", "C", "D"), row: fc.integer({ min: 2, max: 12 }) })
  .map(({ column, row }) => `${column}${row}`);
const gesture: fc.Arbitrary<Gesture> = fc.oneof(
  fc.record({ kind: fc.constantFrom("click" as const, "shiftClick" as const), cell }),
  fc.record({ kind: fc.constant("drag" as const), from: cell, to: cell }),
  fc.record({
    kind: fc.constant("arrow" as const),
    key: fc.constantFrom("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"),
    shift: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("f4" as const) })
);

/**
 * The money rule of Point mode, on generated paths of gestures (Chromium, the mouse and the
 * keyboard): while a SPELL.RUN formula is typed in its cell and cells are pointed at (clicks,
 * drags, Shift+clicks, arrows, Shift+arrows, F4, in any order), nothing is written and nothing
 * runs, the edit stays in its cell; Enter writes the formula typed, which starts at most one run.
 * A failure prints its seed and path.
 */
describe("Point mode's paths of gestures in the static playground (Chromium)", () => {
  let open: OpenPlayground;
  let page: Page;

  beforeAll(async () => {
    ({ open, page } = await openReadyPlayground());
  }, 300_000);
  afterAll(() => closeReadyPlayground(open, page));

  const editedCell = () =>
    page.evaluate(() => {
      const field = document.querySelector<HTMLTextAreaElement>(
        ".jss_worksheet td.editor textarea"
      );
      return field ? { cell: field.closest("td")?.dataset.cell, text: field.value } : null;
    });
  const runsStarted = () =>
    page.evaluate(() => {
      const { stats } = (
        window as unknown as {
          __emulator: { stats: { runsCreated: number; bulkRunsCreated: number } };
        }
      ).__emulator;
      return stats.runsCreated + stats.bulkRunsCreated;
    });
  async function centreOf(address: string): Promise<{ x: number; y: number }> {
    const box = await page.locator(cellSelector(address)).boundingBox();
    if (!box) throw new Error(`no cell ${address}`);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }
  async function make(step: Gesture): Promise<void> {
    if (step.kind === "click") await page.locator(cellSelector(step.cell)).click();
    else if (step.kind === "shiftClick") {
      await page.locator(cellSelector(step.cell)).click({ modifiers: ["Shift"] });
    } else if (step.kind === "drag") {
      const from = await centreOf(step.from);
      const to = await centreOf(step.to);
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(to.x, to.y, { steps: 4 });
      await page.mouse.up();
    } else if (step.kind === "arrow") {
      await page.keyboard.press(step.shift ? `Shift+${step.key}` : step.key);
    } else await page.keyboard.press("F4");
  }

  it("should write nothing and run nothing while pointing, and start at most one run on Enter", async () => {
    const prefix = '=SPELL.RUN("sentiment", SPELL.INPUTS("text", ';
    let path = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(gesture, { minLength: 1, maxLength: 6 }),
        cell,
        async (gestures, last) => {
          const edited = `G${2 + path++}`;
          // A path that failed may have left its edit open.
          if (await editedCell()) await page.keyboard.press("Escape");
          await page.keyboard.press("Control+Home");
          await until(
            page,
            "A1 in view",
            async () => (await page.locator(cellSelector("A1")).count()) > 0
          );
          await clickCell(page, edited);
          const before = await runsStarted();
          await page.keyboard.type(prefix);
          for (const step of gestures) {
            await make(step);
            const now = await editedCell();
            must(now?.cell === edited, `the edit left ${edited} after ${JSON.stringify(step)}`);
            must(now?.text.startsWith(prefix) === true, `the formula typed became ${now?.text}`);
            must((await runsStarted()) === before, "a run started while pointing");
          }
          const written = await modelCell(page, "Reviews", edited);
          must(written.formula === null, `${edited} written while pointing: ${written.formula}`);
          // A last click replaces whatever was pointed: one cell of text, so the formula can run.
          await page.locator(cellSelector(last)).click();
          await page.keyboard.type('), "label")');
          const typed = `${prefix}${last}), "label")`;
          const text = (await editedCell())?.text;
          must(text === typed, `typed ${typed}, the cell holds ${text}`);
          await page.keyboard.press("Enter");
          await until(
            page,
            `${edited}'s result`,
            async () => !["", "#BUSY!"].includes(await shown(page, edited)),
            30_000
          );
          await page.waitForTimeout(1_000);
          const formula = (await modelCell(page, "Reviews", edited)).formula;
          must(formula === typed, `written ${formula}, typed ${typed}`);
          const runs = (await runsStarted()) - before;
          must(runs <= 1, `${runs} runs started by one formula written`);
          must((await activeCell(page)) === `G${path + 2}`, "Enter moved down");
        }
      ),
      { numRuns: 4 }
    );
    expect(open.errors).toEqual([]);
  }, 180_000);
});
