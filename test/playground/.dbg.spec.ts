import { newPlaygroundPage, openStaticPlayground } from "./support/staticPlayground.js";
describe("dbg", () => {
  it("x", async () => {
    const open = await openStaticPlayground();
    const page = await newPlaygroundPage(open.browser);
    page.on("pageerror", (e) => console.log("pageerror", e.message));
    await page.goto(`${open.served.origin}/`);
    await page.waitForSelector("body[data-ready=true]");
    const sheet = (await page.locator(".playground-sheet").boundingBox())!;
    await page.mouse.move(sheet.x + sheet.width / 2, sheet.y + sheet.height / 2);
    const state = () => page.evaluate(() => {
      const s = document.querySelector(".playground-sheet") as HTMLElement;
      const t = document.querySelector(".jss_worksheet") as HTMLElement;
      const rows = [...t.querySelectorAll("tbody tr")];
      const nums = rows.map((r) => Number(r.firstElementChild?.textContent ?? 0)).filter(Boolean);
      const heads = [...t.querySelectorAll("thead td[data-x]")].map((h) => h.textContent);
      return JSON.stringify({ st: s.scrollTop, sh: s.scrollHeight, sl: s.scrollLeft, sw: s.scrollWidth, cw: s.clientWidth, min: Math.min(...nums), max: Math.max(...nums), h0: heads[0], hl: heads[heads.length-1], ml: t.style.marginLeft, mr: t.style.marginRight });
    });
    const tabs = () => page.evaluate(() => { const t = document.querySelector(".jtabs-headers-container")!; const g = document.querySelector("#grid")!; return JSON.stringify([t.getBoundingClientRect(), g.getBoundingClientRect().width, getComputedStyle(t).position]); });
    await page.mouse.wheel(0, 2_000); await page.waitForTimeout(300);
    console.log("small", await tabs());
    await page.screenshot({ path: "/tmp/grid2-dbg0.png" });
    for (let i = 0; i < 30; i++) { await page.mouse.wheel(0, 2_000_000); await page.waitForTimeout(50); }
    console.log(await state(), await tabs());
    for (let i = 0; i < 30; i++) { await page.mouse.wheel(200_000, 0); await page.waitForTimeout(50); }
    console.log(await state());
    const cell = await page.evaluate(() => { const e = document.querySelector('td[data-cell="XFD1048576"]'); return e ? JSON.stringify(e.getBoundingClientRect()) : "none"; });
    console.log(cell, await tabs());
    await page.screenshot({ path: "/tmp/grid2-dbg.png" });
    await open.close();
  }, 120000);
});
