import { chromium } from "playwright-core";
(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-dev-shm-usage"] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, ignoreHTTPSErrors: true });
  const tab = await context.newPage();
  tab.on("requestfailed", (r) => console.log("failed", r.url()));
  tab.on("pageerror", (e) => console.log("pageerror", e.message));
  tab.on("console", (m) => console.log("console", m.type(), m.text().slice(0, 300)));
  await tab.goto("https://localhost:38431/playground.html");
  await tab.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 30000 }).catch((e) => console.log("not ready", String(e)));
  await tab.waitForTimeout(1500);
  await tab.evaluate(() => {
    const p = (window as any).__playground;
    p.grid.type("Reviews", "C1", "summary");
    p.grid.type("Reviews", "C2", '=SPELL.RUN("summarize", SPELL.INPUTS("text", A2), "summary")');
    p.grid.type("Reviews", "D2", '=LEN(A2)');
  });
  await tab.waitForTimeout(3000);
  // fill down C2 to C37 with the fill handle, as a person drags it
  const corner = await tab.evaluate(() => { const p = (window as any).__playground; const ws = p.grid.worksheet("Reviews"); ws.updateSelectionFromCoords(2,1,2,1); return true; });
  const c = await tab.locator(".jss_corner").first().boundingBox();
  const target = await tab.locator('td[data-x="2"][data-y="20"]').first().boundingBox();
  console.log(JSON.stringify([c, target]));
  if (c && target) {
    await tab.mouse.move(c.x + 3, c.y + 3);
    await tab.mouse.down();
    await tab.mouse.move(target.x + 10, target.y + 5, { steps: 10 });
    await tab.mouse.up();
  }
  await tab.waitForTimeout(5000);
  console.log(await tab.evaluate(() => { const p = (window as any).__playground; return JSON.stringify([p.workbook.cell("Reviews","C2"), p.grid.shown("Reviews","C2"), p.grid.shown("Reviews","D2")]); }));
  await tab.screenshot({ path: "/tmp/e19/probe.png" });
  await browser.close();
})();
