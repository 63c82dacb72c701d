import { newPlaygroundPage, openStaticPlayground, until } from "./support/staticPlayground.js";
import { goTo, modelCell } from "./support/gridPage.js";
describe("perf", () => {
  it("times", async () => {
    const open = await openStaticPlayground();
    const page = await newPlaygroundPage(open.browser);
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    await goTo(page, "E2");
    await page.keyboard.type("=LEN(A2)");
    await page.keyboard.press("Enter");
    await goTo(page, "E2");
    await page.keyboard.press("Control+c");
    for (const last of [1002, 10002, 100002]) {
      await goTo(page, `E3:E${last}`);
      const t = Date.now();
      await page.keyboard.press("Control+v");
      await until(page, "pasted", async () => (await modelCell(page, "Reviews", `E${last}`)).formula === `=LEN(A${last})`, 120_000);
      const pasted = Date.now() - t;
      await page.keyboard.press("Control+z");
      await until(page, "undone", async () => (await modelCell(page, "Reviews", `E${last}`)).formula === null, 120_000);
      console.log(last - 2, "cells: paste", pasted, "ms, paste+undo", Date.now() - t, "ms");
    }
    await open.close();
  }, 600_000);
});
