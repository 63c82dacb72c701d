import { chromium } from "playwright-core";
(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-dev-shm-usage"] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, ignoreHTTPSErrors: true });
    const tab = await context.newPage();
    tab.on("pageerror", (error) => console.error("page error:", error.message));
    await tab.goto(`https://localhost:38431/playground.html`);
    await tab.waitForFunction(() => document.body.dataset.ready === "true", null, {
      timeout: 60_000,
    });
    const cell = (column: number, row: number) =>
      tab.locator(`#grid td[data-x="${column}"][data-y="${row}"]`).first();

    // The sheet: a header, a formula typed in C2, filled down to row 37 with the fill handle.
    await cell(2, 0).dblclick();
    await tab.keyboard.type("summary");
    await tab.keyboard.press("Enter");
    await cell(2, 1).dblclick();
    await tab.keyboard.type('=SPELL.RUN("summarize", SPELL.INPUTS("text", A2), "summary")');
    await tab.keyboard.press("Enter");
    await cell(2, 1).click();
    const corner = await tab.locator("#grid .jss_corner").first().boundingBox();
    const last = await cell(2, 36).boundingBox();
    if (!corner || !last) throw new Error("the fill handle or row 37 is not on screen");
    await tab.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await tab.mouse.down();
    await tab.mouse.move(last.x + last.width / 2, last.y + last.height / 2, { steps: 12 });
    await tab.mouse.up();
    await tab.waitForFunction(
      () =>
        [...document.querySelectorAll('#grid td[data-x="2"]')]
          .slice(1, 37)
          .every((td) => td.textContent !== "" && td.textContent !== "#BUSY!"),
      null,
      { timeout: 60_000, polling: 100 }
    );
    await cell(3, 1).click();
    console.log("sheet done");

    await fetch("http://127.0.0.1:38432/_emulator/reset", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer spellrun-dev-key" }, body: JSON.stringify({ faults: { lazyBulk: { groupVisibleAfterMs: 400, runsPerPoll: 6 } } }) }).then((r) => console.log("reset", r.status));
    // The pane: a fresh page, the reviews and their language selected, sentiment running.
    await tab.reload();
    await tab.waitForFunction(() => document.body.dataset.ready === "true", null, {
      timeout: 60_000,
    });
    const first = await cell(0, 0).boundingBox();
    const end = await cell(1, 36).boundingBox();
    if (!first || !end) throw new Error("the reviews are not on screen");
    await tab.mouse.move(first.x + 10, first.y + 5);
    await tab.mouse.down();
    await tab.mouse.move(end.x + 10, end.y + 5, { steps: 8 });
    await tab.mouse.up();
    await tab.locator("#spell-id").click();
    await tab.keyboard.type("sentiment");
    await tab.keyboard.press("Tab");
    console.log("BEFORE", await tab.evaluate(() => { const w = (window as any).__playground.workbook; return JSON.stringify([w.selection, w.allCells().filter((c: any) => !/^[AB]/.test(c.address)).slice(0, 5)]); }));
    await tab.click("#use-selection");
    await tab.waitForFunction(
      () => /will start/.test(document.querySelector("#plan-summary")?.textContent ?? ""),
      null,
      { timeout: 15_000 }
    );
    console.log("PLAN", await tab.textContent("#plan-summary"), await tab.evaluate(() => !(document.querySelector("#placement-box") as HTMLElement).hidden));
    await tab.click("#run");
    await tab.waitForFunction(
      () => {
        const text = document.querySelector("#progress-text")?.textContent ?? "";
        const done = Number(/(\d+) \/ \d+ done/.exec(text)?.[1] ?? 0);
        return done >= 10 && done <= 26;
      },
      null,
      { timeout: 60_000, polling: 50 }
    );
    await tab.waitForTimeout(300); // the progress bar's transition
    console.log("MID", await tab.evaluate(() => { const p = (window as any).__playground; return JSON.stringify([p.workbook.values("Reviews", "C1:E4"), p.grid.shown("Reviews", "E2"), p.grid.shown("Reviews", "D2"), document.querySelector('#grid td[data-x="4"][data-y="1"]')?.outerHTML]); }));
    console.log(await tab.textContent("#plan-summary"));
    console.log(await tab.evaluate(() => { const p = (window as any).__playground; return JSON.stringify([p.workbook.values("Reviews", "C1:F4"), p.grid.shown("Reviews", "E2"), p.grid.shown("Reviews", "E1"), p.workbook.allCells().filter((c: any) => !/^[AB]/.test(c.address)).slice(0,5)]); }));
    await tab
      .waitForFunction(
        () => /^Finished/.test(document.querySelector("#progress-text")?.textContent ?? ""),
        null,
        { timeout: 90_000 }
      )
      .catch(() => undefined); // let the run end before the emulator stops; the picture is taken

    console.log(await tab.evaluate(() => { const p = (window as any).__playground; return JSON.stringify([p.workbook.values("Reviews", "C1:F4"), p.grid.shown("Reviews", "E2")]); }));
  await browser.close();
})();
