/**
 * The task pane's entry point (the shared-runtime page also loads functions.js): once Office is
 * ready, builds the views over the real modules.
 */
import { mountTaskPane } from "./ui/mountTaskPane.js";
import { taskPaneDeps } from "./ui/taskPaneDeps.js";

Office.onReady(async (info) => {
  const root = document.getElementById("app");
  if (!root) return;
  // Opened in a plain browser (no workbook behind it): say so instead of failing on Office APIs.
  if (info.host !== Office.HostType.Excel) {
    root.textContent =
      'Spell Run runs inside Excel: sideload manifest.xml (see docs/excel.md, "Sideload the add-in") ' +
      "and open Spell Run from the Home tab.";
    root.removeAttribute("aria-busy");
    return;
  }
  try {
    await mountTaskPane(root, taskPaneDeps());
  } catch (error) {
    root.textContent = `Spell Run could not start: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    root.removeAttribute("aria-busy");
  }
});
