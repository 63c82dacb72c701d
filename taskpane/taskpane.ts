/**
 * The task pane's entry point (the shared-runtime page also loads functions.js): once Office is
 * ready, builds the views over the real modules.
 */
import { mountTaskPane } from "./ui/mountTaskPane.js";
import { taskPaneDeps } from "./ui/taskPaneDeps.js";

Office.onReady(async () => {
  const root = document.getElementById("app");
  if (!root) return;
  try {
    await mountTaskPane(root, taskPaneDeps());
  } catch (error) {
    root.textContent = `Spell Run could not start: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    root.removeAttribute("aria-busy");
  }
});
