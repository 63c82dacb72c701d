/**
 * Benchmark: the static playground's grid at scale, in headless Chromium (CHROME_BIN or
 * /usr/bin/chromium, never downloaded).
 *
 * 1. A fill of 10,000 rows with the fill handle, by the mouse as a person drags it (held deep in
 *    the bottom edge, then onto row 10,001): the time from the press to row 10,001 showing its
 *    value.
 * 2. Frame times while scrolling a column of 100,000 filled rows: Chromium's own scroll gesture
 *    (`Input.synthesizeScrollGesture`, a mouse wheel scrolling steadily, as its telemetry
 *    benchmarks scroll) down `--distance` pixels at `--speed` pixels a second, read from
 *    Chromium's performance trace (the intervals between the frames it drew, `DrawFrame` events;
 *    where the trace holds none, the intervals between `BeginMainThreadFrame` events): median,
 *    p95 and max, and how long the page's handling of each wheel event took (`EventDispatch`).
 *    The rows are written into the model (the grid holds only a block of the sheet near the
 *    view, moved as the view scrolls), which is set-up, timed apart, with a jump far down (the
 *    block moves) and the cost of each row the grid builds (a drag growing the block).
 *    `--browser-wheel` leaves the wheel to the browser (the page's handler, `wheelRows.ts`, not
 *    added), to compare.
 *
 *   npx tsx bench/playgroundGrid.ts [--rows 100000] [--distance 48000] [--speed 4000] [--no-fill]
 *     [--browser-wheel] [--no-build <folder>]
 *
 * Without `--no-build` it builds the static playground into a temporary folder (about a minute).
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { buildStaticPlayground } from "../scripts/buildPlayground.js";
import { clickCell, fillFarDownTo, shown, typeInCell } from "../scripts/playgroundGestures.js";
import { serveFolder } from "../scripts/serveFolder.js";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const rows = Number(option("--rows", "100000"));
const distance = Number(option("--distance", "48000"));
const speed = Number(option("--speed", "4000"));

const browserWheel = process.argv.includes("--browser-wheel");
/** A script that keeps the sheet's own wheel listener out (for --browser-wheel). */
const LEAVE_WHEEL_TO_BROWSER = `{
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (type === "wheel" && this instanceof HTMLElement && this.classList.contains("playground-sheet")) return;
    return add.call(this, type, listener, options);
  };
}`;

/** The value at fraction `q` of sorted numbers. */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

interface TraceEvent {
  name: string;
  ts: number;
  ph: string;
  dur?: number;
  args?: { data?: { type?: string } };
}

/** Main-thread times (ms) of the wheel events' handling the trace shows (`EventDispatch`). */
function wheelDispatches(events: TraceEvent[]): number[] {
  return events
    .filter((event) => event.name === "EventDispatch" && event.args?.data?.type === "wheel")
    .map((event) => (event.dur ?? 0) / 1000)
    .sort((a, b) => a - b);
}

/** Intervals (ms) between the frames a trace shows drawn. */
function frameIntervals(events: TraceEvent[]): number[] {
  for (const name of ["DrawFrame", "BeginMainThreadFrame"]) {
    const times = events
      .filter((event) => event.name === name)
      .map((event) => event.ts / 1000)
      .sort((a, b) => a - b);
    if (times.length > 10) return times.slice(1).map((time, i) => time - times[i]);
  }
  return [];
}

async function fillByHandle(page: Page): Promise<number> {
  await typeInCell(page, "D2", "1");
  await clickCell(page, "D2");
  const started = performance.now();
  await fillFarDownTo(page, "D", 10_001);
  while ((await shown(page, "D10001")) !== "10000") await page.waitForTimeout(20);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const given = process.argv.includes("--no-build") ? option("--no-build", "") : "";
  const folder =
    given ||
    (await buildStaticPlayground(
      path.join(mkdtempSync(path.join(os.tmpdir(), "spellrun-grid-bench-")), "static")
    ));
  const served = await serveFolder(folder, 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_BIN || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    await context.addInitScript("globalThis.__name = (target) => target;");
    // --browser-wheel: the browser scrolls by itself (the page's wheel handler is not added), to
    // compare the frame times of the two.
    if (browserWheel) await context.addInitScript(LEAVE_WHEEL_TO_BROWSER);
    const open = async () => {
      const page = await context.newPage();
      await page.goto(`${served.origin}/`);
      await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
      return page;
    };

    let fillMs = NaN;
    if (!process.argv.includes("--no-fill")) {
      const fillPage = await open();
      fillMs = await fillByHandle(fillPage);
      await fillPage.close();
    }

    const page = await open();
    const setup = await page.evaluate(async (rows) => {
      interface Worksheet {
        insertRow(count: number): void;
      }
      const playground = (
        window as unknown as {
          __playground: {
            workbook: { setValues(sheet: string, address: string, values: number[][]): void };
            grid: {
              worksheet(sheet: string): Worksheet;
              goTo(address: string): void;
              showRowsInView(): void;
            };
          };
        }
      ).__playground;
      // The rows are written into the model (the truth), as a paste or the add-in writes them.
      const started = performance.now();
      playground.workbook.setValues(
        "Reviews",
        "D2",
        Array.from({ length: rows }, (_, i) => [i + 1])
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
      const written = performance.now();
      // A jump far down: the grid's block moves there (its cells rewritten from the model).
      playground.grid.goTo(`D${Math.floor(rows / 2)}`);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const jumped = performance.now();
      playground.grid.goTo("D2");
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      // What a row the grid builds costs (a drag growing the block builds them): 2,000 rows of
      // the empty Sheet2's block.
      const building = performance.now();
      playground.grid.worksheet("Sheet2").insertRow(2_000);
      const built = performance.now();
      return {
        writeMs: written - started,
        jumpMs: jumped - written,
        rowBuiltMs: (built - building) / 2_000,
      };
    }, rows);
    const sheet = await page.locator(".playground-sheet").boundingBox();
    if (!sheet) throw new Error("no sheet view");
    await page.mouse.move(sheet.x + sheet.width / 2, sheet.y + sheet.height / 2);
    await page.waitForTimeout(500);
    await browser.startTracing(page, {
      categories: ["devtools.timeline", "disabled-by-default-devtools.timeline.frame", "benchmark"],
    });
    const scrollStarted = performance.now();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Input.synthesizeScrollGesture", {
      x: Math.round(sheet.x + sheet.width / 2),
      y: Math.round(sheet.y + sheet.height / 2),
      yDistance: -distance,
      speed,
      gestureSourceType: "mouse",
    });
    const scrollMs = performance.now() - scrollStarted;
    const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as {
      traceEvents: TraceEvent[];
    };
    const scrolledTo = await page.evaluate(
      () => (document.querySelector(".playground-sheet") as HTMLElement).scrollTop
    );
    const intervals = frameIntervals(trace.traceEvents).sort((a, b) => a - b);
    const wheels = wheelDispatches(trace.traceEvents);
    console.log(
      `Playground grid (headless Chromium, ${rows.toLocaleString("en")} filled rows${browserWheel ? ", the browser's own wheel scrolling" : ""})`
    );
    console.log(
      `  fill of 10,000 rows by the fill handle (mouse): ${(fillMs / 1000).toFixed(1)} s`
    );
    console.log(
      `  set-up: ${rows.toLocaleString("en")} rows written into the model in ${(setup.writeMs / 1000).toFixed(1)} s; a jump to row ${Math.floor(rows / 2).toLocaleString("en")} (the grid's block moves) ${setup.jumpMs.toFixed(0)} ms`
    );
    console.log(`  cost per row the grid builds: ${setup.rowBuiltMs.toFixed(3)} ms`);
    console.log(
      `  scroll: ${distance.toLocaleString("en")} px at ${speed.toLocaleString("en")} px/s in ${(scrollMs / 1000).toFixed(1)} s, to ${Math.round(scrolledTo / 24).toLocaleString("en")} rows down`
    );
    console.log(
      `  frame time while scrolling: median ${quantile(intervals, 0.5).toFixed(1)} ms, p95 ${quantile(intervals, 0.95).toFixed(1)} ms, max ${quantile(intervals, 1).toFixed(1)} ms (${intervals.length} frames)`
    );
    console.log(
      `  wheel events handled on the main thread: ${wheels.length}, median ${quantile(wheels, 0.5).toFixed(2)} ms, p95 ${quantile(wheels, 0.95).toFixed(2)} ms, max ${quantile(wheels, 1).toFixed(2)} ms`
    );
  } finally {
    await browser.close();
    await served.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
