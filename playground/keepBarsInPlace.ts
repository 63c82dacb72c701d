/**
 * The formula bar, the sheet tabs and the column headers stay in place while the sheet scrolls,
 * as in Excel: they are sticky (playground.css), each below the one above it, at heights measured
 * here into CSS variables (`--playground-bars-height`, `--playground-tabs-height`).
 */

/**
 * Keeps the bars of `sheet` (the scrolling sheet section) measured while the page lives.
 *
 * @example
 * ```ts
 * keepBarsInPlace(document.querySelector(".playground-sheet")!);
 * ```
 * @returns A function that stops measuring.
 */
export function keepBarsInPlace(sheet: HTMLElement): () => void {
  const bars = sheet.querySelector<HTMLElement>(".playground-bars");
  const tabs = sheet.querySelector<HTMLElement>(".jtabs-headers-container");
  // The space between the bars and the tabs, measured before any scroll, stays; the bars' white
  // covers it (padding, taken back by a margin), so no scrolled-away cell shows through it.
  const gap =
    bars && tabs
      ? Math.max(0, tabs.getBoundingClientRect().top - bars.getBoundingClientRect().bottom)
      : 0;
  if (bars && gap > 0) {
    bars.style.paddingBottom = `${gap}px`;
    bars.style.marginBottom = `${-gap}px`;
  }
  const measure = () => {
    sheet.style.setProperty("--playground-bars-height", `${bars?.offsetHeight ?? 0}px`);
    sheet.style.setProperty("--playground-tabs-height", `${tabs?.offsetHeight ?? 0}px`);
  };
  measure();
  const observer = new ResizeObserver(measure);
  for (const selector of [".playground-bars", ".jtabs-headers-container"]) {
    const element = sheet.querySelector(selector);
    if (element) observer.observe(element);
  }
  return () => observer.disconnect();
}
