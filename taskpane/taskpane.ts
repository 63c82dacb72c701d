/**
 * The task pane's entry point (the shared-runtime page also loads functions.js). Wires the views
 * to the real modules once Office is ready.
 */
import { clearRememberedResults } from "../functions/rememberedResults.js";
import { loadSettings, saveSettings } from "../functions/settings.js";
import { BulkRunController } from "./bulkRunController.js";
import { freezeFormulas } from "./freezeFormulas.js";
import { readSelection } from "./readSelection.js";
import { recalculateWorkbook } from "./recalculateWorkbook.js";
import { recentSpells, rememberSpell } from "./recentSpells.js";
import { clearBulkJob, loadBulkJob } from "./resumeState.js";
import { sharedBulkSource } from "./sharedBulkSource.js";
import { testConnection } from "./testConnection.js";
import { mountTaskPane } from "./ui/mountTaskPane.js";

Office.onReady(async () => {
  const root = document.getElementById("app");
  if (!root) return;
  try {
    await mountTaskPane(root, {
      bulk: {
        controller: new BulkRunController(sharedBulkSource),
        readSelection: () => readSelection(),
        freezeFormulas,
        recentSpells,
        rememberSpell,
        loadBulkJob,
        clearBulkJob,
      },
      settings: {
        loadSettings,
        saveSettings,
        testConnection: (settings) => testConnection(settings),
        clearRememberedResults,
        recalculate: recalculateWorkbook,
      },
    });
  } catch (error) {
    root.textContent = `Spell Run could not start: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    root.removeAttribute("aria-busy");
  }
});
